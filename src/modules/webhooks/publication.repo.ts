import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';

/** pg_advisory_xact_lock key: one publisher at a time, held until its commit. */
const PUBLISH_LOCK = 1_400_800_1;

/**
 * Makes the caller's transaction the only publisher until it ends: an advisory lock held until
 * commit on PostgreSQL; SQLite's one writer already publishes one transaction at a time.
 */
export async function takePublisherTurn(trx: Executor): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${PUBLISH_LOCK})`.execute(trx);
}

/** Committed events not yet published whose delay is over, in outbox order. */
export const duePublications = (ex: Executor, now: number, limit: number) =>
  ex
    .selectFrom('outbox_events')
    .select(['seq', 'event_id', 'company_id', 'environment', 'event_type', 'payload', 'target_endpoint_id'])
    .where('published_seq', 'is', null)
    .where('deliver_after', '<=', now)
    .orderBy('seq')
    .limit(limit)
    .execute();

/**
 * The last event published: where the next publication numbers and instants continue, and how
 * far the console notices may read. The `is not null` lets SQLite read the end of the partial
 * index on published rows; without it SQLite reads the whole outbox.
 */
export const lastPublication = (ex: Executor) =>
  ex
    .selectFrom('outbox_events')
    .select(['published_seq', 'published_at_us'])
    .where('published_seq', 'is not', null)
    .orderBy('published_seq', 'desc')
    .limit(1)
    .executeTakeFirst();

export interface Publication {
  /** The outbox row's `seq`. */
  seq: number;
  publishedSeq: number;
  publishedAtUs: number;
}

/** Gives each outbox row its publication number and instant, in one statement. */
export async function recordPublications(ex: Executor, publications: readonly Publication[]): Promise<void> {
  const values = publications.map(
    (p) =>
      sql`(cast(${p.seq} as bigint), cast(${p.publishedSeq} as bigint), cast(${p.publishedAtUs} as bigint))`,
  );
  await sql`update outbox_events set published_seq = v.column2, published_at_us = v.column3
    from (values ${sql.join(values)}) as v where outbox_events.seq = v.column1`.execute(ex);
}
