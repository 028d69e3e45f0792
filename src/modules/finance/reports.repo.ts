import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { FinanceReportsTable } from './finance.table.js';
import type { SellerRows } from './sales-read.repo.js';

export async function insertReport(ex: Executor, row: Insertable<FinanceReportsTable>): Promise<void> {
  await ex.insertInto('finance_reports').values(row).execute();
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

export function findReportArtifact(ex: Executor, id: string) {
  return ex
    .selectFrom('finance_reports')
    .select(['artifact', 'expires_at', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}
