import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { type DayPartitionedTable, dropsExpiredDaysWhole } from '../../db/day-partitions.js';
import { REQUEST_LOG_RETENTION_MS } from '../request-log/index.js';
import * as retention from './retention.repo.js';

/** Events are kept this long after publication (docs/events.md, "Retention"), then purged. */
export const EVENT_RETENTION_DAYS = 30;
export const EVENT_RETENTION_MS = EVENT_RETENTION_DAYS * 24 * 3600_000;

export interface PurgeBatch {
  /** Events deleted (with their deliveries and attempt log). */
  purged: number;
  /** Where the next batch continues (`published_seq`); null when the expired events are done. */
  next: number | null;
}

/**
 * SQLite, one transaction: among the next `limit` published events after `after` (publication
 * order, on its unique index), those published more than EVENT_RETENTION_DAYS ago on the service
 * clock are deleted with their deliveries and attempt log, unless a delivery of theirs is still
 * waiting (`pending` or `held`, for example for an endpoint disabled longer than the retention):
 * such an event stays until that delivery finishes or its endpoint is deleted.
 *
 * PostgreSQL deletes nothing here: the partition upkeep drops whole days of events with their
 * deliveries and attempts (jobs/partition-upkeep.ts, `eventDayMayGo`).
 */
export async function purgeExpiredEvents(ctx: AppContext, after = 0, limit = 500): Promise<PurgeBatch> {
  if (dropsExpiredDaysWhole(ctx.db)) return { purged: 0, next: null };
  const cutoffUs = (ctx.clock.now() - EVENT_RETENTION_MS) * 1000;
  return ctx.db.transaction().execute(async (trx) => {
    const batch = await retention.publishedAfter(trx, after, limit);
    // published_at_us grows with published_seq: the first young event ends the expired ones.
    const expired = batch.filter((e) => Number(e.published_at_us) < cutoffUs);
    const next = expired.length === limit ? Number(expired.at(-1)!.published_seq) : null;
    if (expired.length === 0) return { purged: 0, next };
    const waiting = await retention.eventsStillWaiting(
      trx,
      expired.map((e) => e.event_id),
    );
    const kept = new Set(waiting.map((w) => w.event_id));
    const ids = expired.map((e) => e.event_id).filter((id) => !kept.has(id));
    if (ids.length === 0) return { purged: 0, next };
    return { purged: await retention.deleteEvents(trx, ids), next };
  });
}

/**
 * PostgreSQL: whether a day of events (with their deliveries and attempts), past retention by
 * its last instant, may be dropped: only when every event of the day was published more than
 * EVENT_RETENTION_DAYS before now and none of their deliveries still waits (pending or held).
 * A waiting delivery keeps its event's whole day, the other events of that day with it, until
 * it finishes or its endpoint is deleted. Asked by the upkeep with the three tables locked.
 */
export const eventDayMayGo = async (
  ex: Executor,
  partitionOf: (table: DayPartitionedTable) => string,
  keptSinceMs: number,
) =>
  !(await retention.dayStillNeeded(
    ex,
    partitionOf('outbox_events'),
    partitionOf('webhook_deliveries'),
    keptSinceMs * 1000,
  ));

/** Receivers' answers are kept as long as the request log keeps requests. */
export const ATTEMPT_BODY_RETENTION_MS = REQUEST_LOG_RETENTION_MS;

/**
 * Clears the response bodies of attempts older than ATTEMPT_BODY_RETENTION_MS (the attempts
 * stay, with their event): the oldest `limit` rows that still carry a body, on the partial index
 * of those rows, up to the first young one. True when a full batch was cleared (more may wait).
 */
export async function trimAttemptBodies(ctx: AppContext, limit = 1000): Promise<boolean> {
  const cutoff = ctx.clock.now() - ATTEMPT_BODY_RETENTION_MS;
  const oldest = await retention.oldestAttemptsWithBody(ctx.db, limit);
  const expired = oldest.filter((row) => Number(row.attempted_at) <= cutoff).map((row) => row.seq);
  if (expired.length === 0) return false;
  await retention.clearAttemptBodies(ctx.db, expired);
  return expired.length === limit;
}
