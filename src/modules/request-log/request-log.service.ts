import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import type { RequestLogRecorder } from './request-log.recorder.js';

/** Rows older than this are deleted by the retention job. */
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

/**
 * The company's requests in the caller's environment, newest first, with the filters of the
 * console and GET /request-logs. `status` is a code (`404`) or a class (`4xx`, `5xx`).
 */
export async function listRequestLog(
  ctx: AppContext,
  principal: Pick<Principal, 'companyId' | 'environment'>,
  filter: RequestLogFilter,
  recorder?: RequestLogRecorder,
) {
  await recorder?.flush();
  const limit = filter.limit ?? 50;
  let query = ctx.db
    .selectFrom('request_log')
    .selectAll()
    .where('company_id', '=', principal.companyId)
    .where('environment', '=', principal.environment)
    .where('at', '>', ctx.clock.now() - REQUEST_LOG_RETENTION_MS);
  if (filter.requestId) query = query.where('request_id', '=', filter.requestId);
  if (filter.code) query = query.where('error_code', '=', filter.code);
  if (filter.keyId) query = query.where('key_id', '=', filter.keyId);
  if (filter.route) query = query.where('route', '=', filter.route);
  if (filter.since) query = query.where('at', '>=', Date.parse(filter.since));
  if (filter.until) query = query.where('at', '<', Date.parse(filter.until));
  if (filter.status) {
    const klass = /^([1-5])xx$/.exec(filter.status);
    if (klass) {
      const low = Number(klass[1]) * 100;
      query = query.where('status', '>=', low).where('status', '<', low + 100);
    } else query = query.where('status', '=', Number(filter.status));
  }
  if (filter.cursor) {
    const { at, requestId } = parseCursor(filter.cursor);
    query = query.where((eb) =>
      eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('request_id', '<', requestId)])]),
    );
  }
  const rows = await query
    .orderBy('at', 'desc')
    .orderBy('request_id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
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
    })),
    nextCursor: rows.length > limit && last ? cursorOf(last.at, last.request_id) : null,
  };
}

/** The retention job's round: deletes up to `batch` rows past the 14 days; true while more remain. */
export async function purgeOldRequests(ctx: AppContext, batch = 1000): Promise<boolean> {
  const cutoff = ctx.clock.now() - REQUEST_LOG_RETENTION_MS;
  const old = await ctx.db
    .selectFrom('request_log')
    .select('request_id')
    .where('at', '<=', cutoff)
    .limit(batch)
    .execute();
  if (old.length === 0) return false;
  await ctx.db
    .deleteFrom('request_log')
    .where(
      'request_id',
      'in',
      old.map((row) => row.request_id),
    )
    .execute();
  return old.length === batch;
}
