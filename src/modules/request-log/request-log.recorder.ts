import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ensureDays } from '../../db/day-partitions.js';
import { bucketOf } from '../../http/rate-limit.js';
import { markKeysUsed } from '../api-keys/index.js';
import { insertRequestRows } from './request-log.repo.js';
import type { RequestLogTable } from './request-log.table.js';

/** Rows wait at most this long, or until this many are waiting, before one insert writes them. */
const FLUSH_MS = 1_000;
const MAX_WAITING = 500;
/** Beyond this many unwritten rows (a store outage) new ones are dropped, never the process. */
const MAX_BUFFERED = 20_000;

/** The newest request time of each key among `rows`. */
function newestByKey(rows: readonly RequestLogTable[]): Map<string, number> {
  const newest = new Map<string, number>();
  for (const row of rows) {
    const seen = newest.get(row.key_id);
    if (seen === undefined || row.at > seen) newest.set(row.key_id, row.at);
  }
  return newest;
}

/**
 * The request log's writer: the reply hook only pushes a row into memory; a timer (or a full
 * buffer) writes the waiting rows in one transaction, off every request's path, then moves
 * each key of the batch's last-used time forward (one update per key, not per request).
 */
export class RequestLogRecorder {
  private waiting: RequestLogTable[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** The write running or last run, and the one queued behind it (at most one of each). */
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  constructor(private readonly ctx: AppContext) {}

  record(row: RequestLogTable): void {
    if (this.waiting.length >= MAX_BUFFERED) return;
    this.waiting.push(row);
    if (this.waiting.length >= MAX_WAITING) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /**
   * Writes what is waiting; readers of this process call it first, so they see their own
   * requests. Calls made while a write is queued share it: a full buffer under load asks on
   * every further request until the queued write starts, and each ask used to queue a write of
   * its own, which then wrote the few rows that had arrived since (docs/console.md).
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued) return this.queued;
    const next = this.writing.then(() => {
      this.queued = null;
      return this.writeWaiting();
    });
    this.queued = next;
    this.writing = next;
    return next;
  }

  /** The rows waiting when the write starts, in batches; later rows wait for their own flush. */
  private async writeWaiting(): Promise<void> {
    let count = this.waiting.length;
    while (count > 0) {
      const rows = this.waiting.splice(0, Math.min(count, MAX_WAITING));
      count -= rows.length;
      // PostgreSQL: the rows' days must have their partitions (db/day-partitions.ts).
      // One transaction: on SQLite one member of a group commit beside the orders, rather
      // than a statement per table and key each waiting for the writer on its own.
      await ensureDays(
        this.ctx.db,
        'request_log',
        rows.map((row) => row.at),
      )
        .then(() =>
          this.ctx.db.transaction().execute(async (trx) => {
            await insertRequestRows(trx, rows);
            await markKeysUsed(trx, newestByKey(rows));
          }),
        )
        .catch(() => undefined);
    }
  }
}

/**
 * Records every authenticated seller API request after its reply. The ApiError body of a
 * failure is captured as it is sent; a successful reply's body is never looked at. With
 * `SDAPI_REQUEST_LOG=off` no hook is installed: nothing is recorded and last-used stays put.
 */
export function installRequestLog(app: FastifyInstance, ctx: AppContext, prefix: string): RequestLogRecorder {
  const recorder = new RequestLogRecorder(ctx);
  if (!ctx.config.requestLog) return recorder;
  const errorBodies = new WeakMap<object, string>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && request.principal && typeof payload === 'string')
      errorBodies.set(request, payload);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const principal = request.principal;
    if (!principal || !request.url.startsWith(prefix)) return;
    const query = request.url.indexOf('?');
    recorder.record({
      request_id: request.id,
      company_id: principal.companyId,
      environment: principal.environment,
      key_id: principal.keyId,
      key_name: principal.keyName,
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      path: query < 0 ? request.url : request.url.slice(0, query),
      status: reply.statusCode,
      error_code: reply.statusCode >= 400 ? (request.errorCode ?? null) : null,
      error_body: errorBodies.get(request) ?? null,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      contract_date: request.contractDate,
      at: ctx.clock.now(),
      rate_class: request.routeOptions.config.rateClass ?? 'general',
      rate_bucket: bucketOf(request),
    });
  });
  app.addHook('onClose', async () => recorder.flush());
  return recorder;
}
