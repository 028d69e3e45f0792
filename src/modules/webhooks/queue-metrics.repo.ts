import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { DeliveryStatus } from './webhooks.table.js';

// Written into the SQL, not bound: PostgreSQL plans this app's statements generically (blind to
// bound values), and only a literal status lets it use the partial indexes webhook_deliveries_due
// and webhook_deliveries_held rather than read every delivery ever made at each scrape.
const PENDING = sql.lit<DeliveryStatus>('pending');
const HELD = sql.lit<DeliveryStatus>('held');

/** Pending deliveries: all of them, and those due by `now` (or in flight). */
export const pendingCounts = (ex: Executor, now: number) =>
  ex
    .selectFrom('webhook_deliveries')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.sum<number>(eb.case().when('next_attempt_at', '<=', now).then(1).else(0).end()).as('due'),
    ])
    .where('status', '=', PENDING)
    .executeTakeFirstOrThrow();

/** Deliveries held (their endpoint disabled). */
export const heldCount = (ex: Executor) =>
  ex
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', HELD)
    .executeTakeFirstOrThrow();

/** Since when the oldest committed, unpublished event has been due (its commit or its delay's end). */
export const oldestDuePublication = (ex: Executor, now: number) =>
  ex
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.min<number>('deliver_after').as('since'))
    .where('published_seq', 'is', null)
    .where('deliver_after', '<=', now)
    .executeTakeFirst();

/** Since when the oldest pending delivery has been due (first attempt or retry). */
export const oldestPendingDelivery = (ex: Executor) =>
  ex
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min<number>('next_attempt_at').as('since'))
    .where('status', '=', PENDING)
    .executeTakeFirst();
