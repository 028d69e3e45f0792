import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { dropsExpiredDaysWhole } from '../../db/day-partitions.js';
import { heavyReader } from '../../db/replica.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import type { RequestLogRecorder } from './request-log.recorder.js';
import * as repo from './request-log.repo.js';
import type { RequestLogTable } from './request-log.table.js';

/** Rows older than this are deleted (SQLite) or their days dropped (PostgreSQL) by the retention jobs. */
export const REQUEST_LOG_RETENTION_MS = 14 * 86_400_000;

export interface RequestLogFilter {
  requestId?: string;
  status?: string;
  code?: string;
  keyId?: string;
  route?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: number;
}

const cursorOf = (at: number, requestId: string) => Buffer.from(`${at}:${requestId}`).toString('base64url');

function parseCursor(cursor: string): { at: number; requestId: string } {
  const [at, requestId] = Buffer.from(cursor, 'base64url').toString().split(':');
  if (!at || !requestId || !/^\d+$/.test(at)) {
    throw fail('VALIDATION_FAILED', 'cursor is not one this API returned.', {
      issues: [{ field: 'cursor', in: 'query', message: 'unknown cursor', keyword: 'format' }],
    });
  }
  return { at: Number(at), requestId };
}

type Scope = Pick<Principal, 'companyId' | 'environment'>;

/** A stored row as the API and the console show it. */
function entryOf(row: Selectable<RequestLogTable>) {
  return {
    requestId: row.request_id,
    at: new Date(row.at).toISOString(),
    environment: row.environment,
    keyId: row.key_id,
    keyName: row.key_name,
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    errorCode: row.error_code,
    error: row.error_body ? (JSON.parse(row.error_body) as Record<string, unknown>) : null,
    durationMs: row.duration_ms,
    contractDate: row.contract_date,
  };
}

/**
 * The executor of a log read: the replica when it has replayed the rows this process just
 * flushed (they are marked as the company's write), else the primary.
 */
async function logReader(ctx: AppContext, scope: Scope, recorder?: RequestLogRecorder): Promise<Executor> {
  await recorder?.flush();
  if (recorder) await ctx.replica?.markWrite(scope.companyId);
  return heavyReader(ctx, scope.companyId);
}

/** The company's environment and the oldest instant still inside the retention window. */
const keptSince = (ctx: AppContext, scope: Scope): repo.KeptScope => ({
  companyId: scope.companyId,
  environment: scope.environment,
  after: ctx.clock.now() - REQUEST_LOG_RETENTION_MS,
});

/** `404` is one status; `4xx` the class from 400 to 499. */
function statusFilter(status: string): repo.StatusFilter {
  const klass = /^([1-5])xx$/.exec(status);
  if (!klass) return { equals: Number(status) };
  const low = Number(klass[1]) * 100;
  return { low, high: low + 100 };
}

/** A span whose end is not after its start matches nothing; say so instead of answering an empty page. */
function checkSpan(filter: RequestLogFilter): void {
  if (filter.since && filter.until && Date.parse(filter.until) <= Date.parse(filter.since)) {
    throw fail('VALIDATION_FAILED', 'until must be after since.', {
      issues: [{ field: 'until', in: 'query', message: 'must be after since', keyword: 'range' }],
    });
  }
}

/**
 * The company's requests in the caller's environment, newest first, with the filters of the
 * console and GET /request-logs. `status` is a code (`404`) or a class (`4xx`, `5xx`).
 */
export async function listRequestLog(
  ctx: AppContext,
  principal: Scope,
  filter: RequestLogFilter,
  recorder?: RequestLogRecorder,
) {
  checkSpan(filter);
  const reads = await logReader(ctx, principal, recorder);
  const limit = filter.limit ?? 50;
  const rows = await repo.keptRequests(reads, keptSince(ctx, principal), {
    requestId: filter.requestId,
    code: filter.code,
    keyId: filter.keyId,
    route: filter.route,
    since: filter.since ? Date.parse(filter.since) : undefined,
    until: filter.until ? Date.parse(filter.until) : undefined,
    status: filter.status ? statusFilter(filter.status) : undefined,
    before: filter.cursor ? parseCursor(filter.cursor) : undefined,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(entryOf),
    nextCursor: rows.length > limit && last ? cursorOf(last.at, last.request_id) : null,
  };
}

/** One request of the company's environment by its id; another company's, or a purged one, is NOT_FOUND. */
export async function getRequestLogEntry(
  ctx: AppContext,
  scope: Scope,
  requestId: string,
  recorder?: RequestLogRecorder,
) {
  const reads = await logReader(ctx, scope, recorder);
  const row = await repo.keptRequest(reads, keptSince(ctx, scope), requestId);
  if (!row) throw fail('NOT_FOUND', `No request ${requestId} in this environment's log.`);
  return entryOf(row);
}

/** The keys that made the environment's kept requests, by name: the choices of the log's key filter. */
export async function listRequestLogKeys(ctx: AppContext, scope: Scope, recorder?: RequestLogRecorder) {
  const reads = await logReader(ctx, scope, recorder);
  const rows = await repo.keptKeys(reads, keptSince(ctx, scope));
  // A key renamed inside the window appears once, under one of its names.
  const byId = new Map(rows.map((row) => [row.key_id, row.key_name]));
  return [...byId].map(([id, name]) => ({ id, name }));
}

/**
 * The retention job's round on SQLite: deletes up to `batch` rows past the 14 days; true while
 * more remain. PostgreSQL drops whole days instead (jobs/partition-upkeep.ts): nothing to do here.
 */
export async function purgeOldRequests(ctx: AppContext, batch = 1000): Promise<boolean> {
  if (dropsExpiredDaysWhole(ctx.db)) return false;
  const cutoff = ctx.clock.now() - REQUEST_LOG_RETENTION_MS;
  const old = await repo.requestsMadeBy(ctx.db, cutoff, batch);
  if (old.length === 0) return false;
  await repo.deleteRequests(
    ctx.db,
    old.map((row) => row.request_id),
  );
  return old.length === batch;
}
