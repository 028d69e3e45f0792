import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { REQUEST_LOG_RETENTION_MS } from '../request-log/request-log.service.js';

/** Events are kept this long after publication (docs/events.md, "Retention"), then purged. */
export const EVENT_RETENTION_DAYS = 30;
const RETENTION_MS = EVENT_RETENTION_DAYS * 24 * 3600_000;
/** pg_try_advisory_xact_lock key: one purging process at a time (the others skip the round). */
const PURGE_LOCK = 1_400_800_2;

export interface PurgeBatch {
  /** Events deleted (with their deliveries and attempt log). */
  purged: number;
  /** Where the next batch continues (`published_seq`); null when the expired events are done. */
  next: number | null;
}

/**
 * One transaction: among the next `limit` published events after `after` (publication order,
 * on its unique index), those published more than EVENT_RETENTION_DAYS ago on the service clock
 * are deleted with their deliveries and attempt log, unless a delivery of theirs is still
 * waiting (`pending` or `held`, for example for an endpoint disabled longer than the retention):
 * such an event stays until that delivery finishes or its endpoint is deleted.
 */
export async function purgeExpiredEvents(ctx: AppContext, after = 0, limit = 500): Promise<PurgeBatch> {
  const cutoffUs = (ctx.clock.now() - RETENTION_MS) * 1000;
  return ctx.db.transaction().execute(async (trx) => {
    if (ctx.engine === 'postgres') {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${PURGE_LOCK}) as locked`.execute(trx);
      if (!rows[0]?.locked) return { purged: 0, next: null };
    }
    const batch = await trx
      .selectFrom('outbox_events')
      .select(['event_id', 'published_seq', 'published_at_us'])
      .where('published_seq', '>', after)
      .orderBy('published_seq')
      .limit(limit)
      .execute();
    // published_at_us grows with published_seq: the first young event ends the expired ones.
    const expired = batch.filter((e) => Number(e.published_at_us) < cutoffUs);
    const next = expired.length === limit ? Number(expired.at(-1)!.published_seq) : null;
    if (expired.length === 0) return { purged: 0, next };
    const waiting = await trx
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where(
        'event_id',
        'in',
        expired.map((e) => e.event_id),
      )
      .where('status', 'in', ['pending', 'held'])
      .execute();
    const kept = new Set(waiting.map((w) => w.event_id));
    const ids = expired.map((e) => e.event_id).filter((id) => !kept.has(id));
    if (ids.length === 0) return { purged: 0, next };
    await trx
      .deleteFrom('webhook_attempts')
      .where('delivery_id', 'in', (eb) =>
        eb.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', ids),
      )
      .execute();
    await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', ids).execute();
    const deleted = await trx.deleteFrom('outbox_events').where('event_id', 'in', ids).executeTakeFirst();
    return { purged: Number(deleted.numDeletedRows), next };
  });
}

/** Receivers' answers are kept as long as the request log keeps requests. */
export const ATTEMPT_BODY_RETENTION_MS = REQUEST_LOG_RETENTION_MS;

/**
 * Clears the response bodies of attempts older than ATTEMPT_BODY_RETENTION_MS (the attempts
 * stay, with their event): the oldest `limit` rows that still carry a body, on the partial index
 * of those rows, up to the first young one. True when a full batch was cleared (more may wait).
 */
export async function trimAttemptBodies(ctx: AppContext, limit = 1000): Promise<boolean> {
  const cutoff = ctx.clock.now() - ATTEMPT_BODY_RETENTION_MS;
  const oldest = await ctx.db
    .selectFrom('webhook_attempts')
    .select(['seq', 'attempted_at'])
    .where('response_body', 'is not', null)
    .orderBy('seq')
    .limit(limit)
    .execute();
  const expired = oldest.filter((row) => Number(row.attempted_at) <= cutoff).map((row) => row.seq);
  if (expired.length === 0) return false;
  await ctx.db
    .updateTable('webhook_attempts')
    .set({ response_body: null })
    .where('seq', 'in', expired)
    .execute();
  return expired.length === limit;
}
