import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** The next `limit` published events after `after`, in publication order (its unique index). */
export const publishedAfter = (ex: Executor, after: number, limit: number) =>
  ex
    .selectFrom('outbox_events')
    .select(['event_id', 'published_seq', 'published_at_us'])
    .where('published_seq', '>', after)
    .orderBy('published_seq')
    .limit(limit)
    .execute();

/** Of these events, those with a delivery still waiting (pending or held). */
export const eventsStillWaiting = (ex: Executor, eventIds: string[]) =>
  ex
    .selectFrom('webhook_deliveries')
    .select('event_id')
    .where('event_id', 'in', eventIds)
    .where('status', 'in', ['pending', 'held'])
    .execute();

/** Deletes events with their deliveries and attempt log; returns how many events went. */
export async function deleteEvents(ex: Executor, eventIds: string[]): Promise<number> {
  await ex
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) =>
      eb.selectFrom('webhook_deliveries').select('id').where('event_id', 'in', eventIds),
    )
    .execute();
  await ex.deleteFrom('webhook_deliveries').where('event_id', 'in', eventIds).execute();
  const deleted = await ex.deleteFrom('outbox_events').where('event_id', 'in', eventIds).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** The oldest `limit` attempts that still carry a response body (their partial index). */
export const oldestAttemptsWithBody = (ex: Executor, limit: number) =>
  ex
    .selectFrom('webhook_attempts')
    .select(['seq', 'attempted_at'])
    .where('response_body', 'is not', null)
    .orderBy('seq')
    .limit(limit)
    .execute();

/** Clears the response bodies of these attempts (the attempts stay). */
export const clearAttemptBodies = (ex: Executor, seqs: number[]) =>
  ex.updateTable('webhook_attempts').set({ response_body: null }).where('seq', 'in', seqs).execute();

/**
 * Whether one day's partitions of the outbox and of its deliveries (named) hold anything still
 * needed: an event not yet published or published at or after `sinceUs` (the newest published
 * is the last in publication order), or a delivery still waiting (pending or held). Each look
 * reads a partial or ordered index of the day, not the day's rows.
 */
export async function dayStillNeeded(ex: Executor, events: string, deliveries: string, sinceUs: number) {
  const { rows } = await sql<{ needed: boolean }>`select
    exists (select 1 from ${sql.id(events)} where published_seq is null)
    or coalesce((select published_at_us from ${sql.id(events)} where published_seq is not null
      order by published_seq desc limit 1), 0) >= ${sinceUs}
    or exists (select 1 from ${sql.id(deliveries)} where status = 'pending')
    or exists (select 1 from ${sql.id(deliveries)} where status = 'held') as needed`.execute(ex);
  return rows[0]?.needed === true;
}
