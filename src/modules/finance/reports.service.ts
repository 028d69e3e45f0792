import { gunzipSync } from 'node:zlib';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { downloadSignature } from '../../http/signed-download.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildPendingReports, REPORT_FAILED, REPORT_TYPE, type ReportFilters } from './report-builds.js';
import * as repo from './reports.repo.js';
import type { SellerRows } from './sales-read.repo.js';

/** How long one signed download link lives. */
export const REPORT_LINK_TTL_MS = 5 * 60 * 1000;
/** A report still pending this long after it started died with its process: shown as failed. */
export const REPORT_DEADLINE_MS = 30 * 60 * 1000;

/**
 * POST /reports: records the job; the gzip CSV of the activity matching `filters` is built after
 * the reply (report-builds.ts), and `report.ready` queued in the transaction that stores it.
 */
export async function startReport(
  ctx: AppContext,
  scope: SellerRows,
  filters: ReportFilters,
  log?: { error(details: object, message: string): void },
) {
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await repo.insertReport(ctx.db, {
    id,
    seller_company_id: scope.sellerId,
    environment: scope.environment,
    report_type: REPORT_TYPE,
    filters: JSON.stringify(filters),
    status: 'pending',
    created_at: now,
  });
  buildPendingReports(ctx, scope, log);
  return { reportId: id, reportType: REPORT_TYPE, status: 'pending' as const };
}

const signatureOf = (ctx: AppContext, id: string, expires: number) =>
  downloadSignature(ctx, 'finance-report', id, expires);

const expired = (id: string, at: number) =>
  fail('EXPORT_EXPIRED', `Report ${id} expired at ${isoOf(at)}; start a new one.`, { expiredAt: isoOf(at) });

/** GET /reports/{id}: status, row count, checksum and a short-lived signed download link. */
export async function reportStatus(ctx: AppContext, scope: SellerRows, id: string) {
  const row = await repo.findReport(ctx.db, scope, id);
  if (!row) throw fail('NOT_FOUND', `No report ${id}.`);
  const now = ctx.clock.now();
  if (row.status === 'pending' && now - row.created_at > REPORT_DEADLINE_MS) {
    const gaveUp = { status: 'failed' as const, error: REPORT_FAILED, completed_at: now };
    if (await repo.settlePendingReport(ctx.db, id, gaveUp)) Object.assign(row, gaveUp);
    else return reportStatus(ctx, scope, id);
  }
  if (row.status === 'ready' && row.expires_at !== null && row.expires_at <= now)
    throw expired(id, row.expires_at);
  const linkExpiresSec = Math.ceil(Math.min(now + REPORT_LINK_TTL_MS, row.expires_at ?? now) / 1000);
  const ready = row.status === 'ready';
  return {
    reportId: row.id,
    reportType: row.report_type,
    status: row.status,
    format: 'csv' as const,
    compression: 'gzip' as const,
    filters: JSON.parse(row.filters) as Record<string, unknown>,
    rows: row.row_count === null ? null : Number(row.row_count),
    bytes: row.bytes === null ? null : Number(row.bytes),
    checksum: row.checksum,
    createdAt: isoOf(row.created_at),
    readyAt: isoOrNull(row.completed_at),
    expiresAt: isoOrNull(row.expires_at),
    downloadUrl: ready
      ? `${ctx.config.publicUrl}/api/seller/v1/reports/${row.id}/artifact?expires=${linkExpiresSec}&signature=${signatureOf(ctx, row.id, linkExpiresSec)}`
      : null,
    error: row.error,
  };
}

/**
 * The company's ready report as plain CSV (the console's uncompressed download): another
 * company's report, or one without its file yet, is 404 (as the signed link answers); one past
 * its TTL 410.
 */
export async function reportCsv(ctx: AppContext, scope: SellerRows, id: string): Promise<Buffer> {
  const status = await reportStatus(ctx, scope, id);
  const row = status.status === 'ready' ? await repo.findReportArtifact(ctx.db, id) : undefined;
  if (!row?.artifact) throw fail('NOT_FOUND', `Report ${id} is ${status.status}: no CSV yet.`);
  return gunzipSync(row.artifact);
}

/** The artifact behind a signed link: a forged or stale link is 403, a report past its TTL 410. */
export async function reportArtifact(ctx: AppContext, id: string, expires: number, signature: string) {
  const refused = () =>
    fail(
      'FORBIDDEN',
      'This download link is invalid or has expired; fetch GET /reports/{reportId} for a new one.',
    );
  if (!constantTimeEqual(signature, signatureOf(ctx, id, expires))) throw refused();
  const row = await repo.findReportArtifact(ctx.db, id);
  if (row?.status !== 'ready' || !row.artifact) throw fail('NOT_FOUND', `No artifact for report ${id}.`);
  const now = ctx.clock.now();
  if (row.expires_at !== null && row.expires_at <= now) throw expired(id, row.expires_at);
  if (expires * 1000 <= now) throw refused();
  return row.artifact;
}
