import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { FinanceReportsTable } from './finance.table.js';
import type { SellerRows } from './sales-read.repo.js';

export async function insertReport(ex: Executor, row: Insertable<FinanceReportsTable>): Promise<void> {
  await ex.insertInto('finance_reports').values(row).execute();
}

/** The reports one build makes: the first, whose row holds the gzip, and every one it took. */
export interface ReportBuild {
  leadId: string;
  /** The JSON of the filters all of them were asked with. */
  filters: string;
  reportIds: string[];
}

/** The seller's pending reports no build has taken yet. */
const unbuiltOf = (ex: Executor, scope: SellerRows) =>
  ex
    .selectFrom('finance_reports')
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('status', '=', 'pending')
    .where('artifact_of', 'is', null);

/** Whether the seller has a pending report no build has taken yet. */
export async function hasUnbuiltReports(ex: Executor, scope: SellerRows): Promise<boolean> {
  return (await unbuiltOf(ex, scope).select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Most reports one build takes (the rest wait for the next). */
const BUILD_TAKES_AT_MOST = 500;

/**
 * Takes the seller's oldest pending report no build has taken, and every other such report asked
 * with the same filters; undefined when there is none. Each statement only takes rows no one has
 * taken, so a report another process takes first is skipped, never built twice.
 */
export async function takeUnbuiltReports(ex: Executor, scope: SellerRows): Promise<ReportBuild | undefined> {
  for (;;) {
    const lead = await unbuiltOf(ex, scope)
      .select(['id', 'filters'])
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    if (!lead) return undefined;
    const took = await ex
      .updateTable('finance_reports')
      .set({ artifact_of: lead.id })
      .where('id', '=', lead.id)
      .where('status', '=', 'pending')
      .where('artifact_of', 'is', null)
      .executeTakeFirst();
    if (Number(took.numUpdatedRows) === 0) continue;
    const alike = unbuiltOf(ex, scope)
      .select('id')
      .where('filters', '=', lead.filters)
      .orderBy('created_at')
      .limit(BUILD_TAKES_AT_MOST - 1);
    const others = await ex
      .updateTable('finance_reports')
      .set({ artifact_of: lead.id })
      .where('id', 'in', alike)
      .where('artifact_of', 'is', null)
      .returning('id')
      .execute();
    return { leadId: lead.id, filters: lead.filters, reportIds: [lead.id, ...others.map((r) => r.id)] };
  }
}

/**
 * Stores a build's gzip on its first report's row and settles each of its reports still pending
 * (one the status check gave up on stays failed); the ids it settled.
 */
export async function settleBuild(
  ex: Executor,
  build: ReportBuild,
  ready: Pick<
    Updateable<FinanceReportsTable>,
    'checksum' | 'bytes' | 'row_count' | 'completed_at' | 'expires_at'
  >,
  artifact: Buffer,
): Promise<string[]> {
  const settled = await ex
    .updateTable('finance_reports')
    .set({ ...ready, status: 'ready' })
    .where('id', 'in', build.reportIds)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  if (settled.length > 0)
    await ex.updateTable('finance_reports').set({ artifact }).where('id', '=', build.leadId).execute();
  return settled.map((r) => r.id);
}

/** Fails each of a build's reports still pending. */
export async function failBuild(ex: Executor, build: ReportBuild, error: string, at: number): Promise<void> {
  await ex
    .updateTable('finance_reports')
    .set({ status: 'failed', error, completed_at: at })
    .where('id', 'in', build.reportIds)
    .where('status', '=', 'pending')
    .execute();
}

/** Settles a pending report; false when it was settled already (a late build cannot revive it). */
export async function settlePendingReport(
  ex: Executor,
  id: string,
  patch: Updateable<FinanceReportsTable>,
): Promise<boolean> {
  const result = await ex
    .updateTable('finance_reports')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A seller's report without its artifact bytes. */
export function findReport(ex: Executor, scope: SellerRows, id: string) {
  return ex
    .selectFrom('finance_reports')
    .select([
      'id',
      'report_type',
      'filters',
      'status',
      'checksum',
      'bytes',
      'row_count',
      'error',
      'created_at',
      'completed_at',
      'expires_at',
    ])
    .where('id', '=', id)
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

/** A report's state and the gzip it was built with, read from the row that holds it. */
export async function findReportArtifact(ex: Executor, id: string) {
  const row = await ex
    .selectFrom('finance_reports')
    .select(['artifact', 'artifact_of', 'expires_at', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.artifact_of || row.artifact_of === id) return row;
  const holder = await ex
    .selectFrom('finance_reports')
    .select('artifact')
    .where('id', '=', row.artifact_of)
    .executeTakeFirst();
  return { ...row, artifact: holder?.artifact ?? null };
}
