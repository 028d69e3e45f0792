import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { WEBHOOK_DELIVERY_JOB, wakeJobAtCommit } from '../../jobs/notify-job.repo.js';
import { EVENT_TYPES, isEventType } from '../events/index.js';
import * as deliveryWrites from './delivery-writes.repo.js';
import * as endpointsRepo from './endpoints.repo.js';
import * as publication from './publication.repo.js';

/** Events published per round at most. */
export const PUBLISH_BATCH = 500;

interface UnpublishedEvent {
  seq: number;
  event_id: string;
  company_id: string;
  environment: string;
  event_type: string;
  payload: string;
  target_endpoint_id: string | null;
}

/**
 * Publishes committed outbox events in commit order (docs/events.md, "Ordering"): under one
 * lock held until commit, due unpublished events get the next `published_seq` (and a strictly
 * increasing `published_at_us`), and one delivery row per matching endpoint. The outbox `seq`
 * is assigned at insert, so a transaction that commits late holds a smaller `seq` than rows
 * already read; it is simply published in a later round with a larger `published_seq`, and no
 * reader of `published_seq` (GET /events, delivery) can have passed it.
 */
export async function publishDue(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    await publication.takePublisherTurn(trx);
    const events = await publication.duePublications(trx, now, PUBLISH_BATCH);
    if (events.length === 0) return 0;
    await assignOrder(trx, events, now);
    const deliveries = await fanOut(trx, events, now);
    // Every process's delivery job (a NOTIFY on PostgreSQL); SQLite's one process wakes its own.
    if (deliveries > 0) await wakeJobAtCommit(trx, WEBHOOK_DELIVERY_JOB);
    return events.length;
  });
}

const orderOf = new WeakMap<UnpublishedEvent, number>();

async function assignOrder(trx: Executor, events: UnpublishedEvent[], now: number): Promise<void> {
  const last = await publication.lastPublication(trx);
  let seq = last?.published_seq ?? 0;
  let at = last?.published_at_us ?? 0;
  const publications = events.map((e) => {
    seq += 1;
    at = Math.max(at + 1, now * 1000);
    orderOf.set(e, seq);
    return { seq: e.seq, publishedSeq: seq, publishedAtUs: at };
  });
  await publication.recordPublications(trx, publications);
}

export type Subscriber = endpointsRepo.EndpointRow & { types: Set<string> };

export const subscriberOf = (row: endpointsRepo.EndpointRow): Subscriber => ({
  ...row,
  types: new Set(JSON.parse(row.event_types) as string[]),
});

/** Whether an event goes to an endpoint on publication (its company, audience and type filter). */
export const matches = (
  endpoint: Subscriber,
  event: Pick<
    UnpublishedEvent,
    'company_id' | 'environment' | 'event_type' | 'payload' | 'target_endpoint_id'
  >,
): boolean => {
  if (endpoint.environment !== event.environment || endpoint.company_id !== event.company_id) return false;
  // A test send (of any type) is its endpoint's alone.
  if (event.target_endpoint_id !== null) return endpoint.id === event.target_endpoint_id;
  const audience = isEventType(event.event_type) ? EVENT_TYPES[event.event_type].audience : 'seller';
  if (audience === 'endpoint') return endpoint.id === event.target_endpoint_id;
  if (
    audience === 'other-endpoints' &&
    (JSON.parse(event.payload) as { endpointId?: string }).endpointId === endpoint.id
  )
    return false;
  return endpoint.types.has('*') || endpoint.types.has(event.event_type);
};

/** One delivery per (event, matching endpoint); a disabled endpoint's rows are `held` until enable. */
async function fanOut(trx: Executor, events: UnpublishedEvent[], now: number): Promise<number> {
  const rowsOfEndpoints = await endpointsRepo.endpointsOfCompanies(trx, [
    ...new Set(events.map((e) => e.company_id)),
  ]);
  if (rowsOfEndpoints.length === 0) return 0;
  const endpoints = rowsOfEndpoints.map(subscriberOf);
  const rows = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => matches(endpoint, event))
      .map((endpoint) =>
        deliveryWrites.newDelivery(endpoint, { ...event, published_seq: orderOf.get(event)! }, now),
      ),
  );
  await deliveryWrites.insertDeliveries(trx, rows);
  return rows.length;
}
