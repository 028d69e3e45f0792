import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import * as deliveryWrites from './delivery-writes.repo.js';
import * as endpointsRepo from './endpoints.repo.js';
import { matches, subscriberOf } from './publisher.service.js';
import * as redelivery from './redelivery.repo.js';

/** Events one replay call re-queues at most; calling again with the same `since` continues. */
export const MAX_REPLAY = 500;

async function endpointFor(trx: Executor, tenant: endpointsRepo.Tenant | null, endpointId: string) {
  const endpoint = tenant
    ? await endpointsRepo.endpointOf(trx, tenant, endpointId)
    : await endpointsRepo.endpointById(trx, endpointId);
  if (!endpoint) throw fail('NOT_FOUND', `Webhook endpoint ${endpointId} not found.`);
  return endpoint;
}

/**
 * Sends one published event to one endpoint again, as a new delivery due now (its own retries;
 * `held` while the endpoint is disabled); the endpoint's type filter is not consulted. A
 * delivery of the event to the endpoint that has not finished is superseded by it, and its
 * attempts are numbered after every earlier attempt of the event there. With a tenant (a
 * seller), an event or endpoint of another company or environment is not found; without one
 * (the operator), a mismatched pair is refused.
 */
export async function redeliverEvent(
  ctx: AppContext,
  tenant: endpointsRepo.Tenant | null,
  eventId: string,
  endpointId: string,
) {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const event = await redelivery.eventOf(trx, tenant, eventId);
    if (!event) throw fail('NOT_FOUND', `Event ${eventId} not found.`);
    const endpoint = await endpointFor(trx, tenant, endpointId);
    if (endpoint.company_id !== event.company_id || endpoint.environment !== event.environment)
      throw fail(
        'VALIDATION_FAILED',
        'The event and the endpoint belong to different companies or environments.',
      );
    if (event.published_seq === null)
      throw fail('VALIDATION_FAILED', 'The event is not published yet; it will be delivered normally.');
    const base = await deliveryWrites.supersedeDeliveries(trx, endpointId, eventId, now);
    const delivery = deliveryWrites.newDelivery(
      endpoint,
      { ...event, published_seq: event.published_seq },
      now,
      base,
    );
    await deliveryWrites.insertDeliveries(trx, [delivery]);
    return { deliveryId: delivery.id, eventId, endpointId, status: delivery.status };
  });
}

function sinceOf(since: string) {
  const sinceMs = Date.parse(since);
  if (Number.isNaN(sinceMs)) throw fail('VALIDATION_FAILED', 'since must be an RFC 3339 date-time.');
  return sinceMs;
}

/**
 * The events a replay to this endpoint would queue, oldest first: published at or after the
 * later of `sinceMs` and the endpoint's creation (an endpoint never receives what came before
 * it), and not received nor about to be: those whose every delivery to it failed, and those it
 * matches (type filter, audience) but never got a delivery of (filtered differently then).
 * Deliveries pending, held or succeeded are left alone, so a second replay queues nothing twice.
 */
async function replayable(
  trx: Executor,
  tenant: endpointsRepo.Tenant,
  endpoint: endpointsRepo.EndpointRow,
  sinceMs: number,
) {
  const subscriber = subscriberOf(endpoint);
  const fromMs = Math.max(sinceMs, Number(endpoint.created_at));
  const events = await redelivery.notReceivedBy(trx, tenant, endpoint.id, fromMs * 1000);
  return {
    from: new Date(fromMs).toISOString(),
    due: events.filter((e) => Boolean(e.has_failed) || matches(subscriber, e)),
  };
}

/** How many events a replay with this `since` would queue now (every call's worth, not one call's). */
export async function previewReplay(
  ctx: AppContext,
  tenant: endpointsRepo.Tenant,
  endpointId: string,
  since: string,
) {
  const sinceMs = sinceOf(since);
  const endpoint = await endpointFor(ctx.db, tenant, endpointId);
  const { from, due } = await replayable(ctx.db, tenant, endpoint, sinceMs);
  return { endpointId, since: new Date(sinceMs).toISOString(), from, count: due.length, perCall: MAX_REPLAY };
}

/**
 * Re-queues to one endpoint of the tenant what `replayable` finds, oldest first, at most
 * MAX_REPLAY per call; each new delivery numbers its attempts after the event's failed ones.
 */
export async function replayFailedSince(
  ctx: AppContext,
  tenant: endpointsRepo.Tenant,
  endpointId: string,
  since: string,
) {
  const now = ctx.clock.now();
  const sinceMs = sinceOf(since);
  return ctx.db.transaction().execute(async (trx) => {
    const endpoint = await endpointFor(trx, tenant, endpointId);
    const { from, due } = await replayable(trx, tenant, endpoint, sinceMs);
    const chosen = due.slice(0, MAX_REPLAY);
    const bases = await deliveryWrites.attemptsMadeOf(
      trx,
      endpointId,
      chosen.map((e) => e.event_id),
    );
    const rows = chosen.map((e) =>
      deliveryWrites.newDelivery(
        endpoint,
        { ...e, published_seq: e.published_seq! },
        now,
        bases.get(e.event_id) ?? 0,
      ),
    );
    await deliveryWrites.insertDeliveries(trx, rows);
    return {
      endpointId,
      since: new Date(sinceMs).toISOString(),
      from,
      replayed: rows.length,
      eventIds: chosen.map((e) => e.event_id),
      more: due.length > chosen.length,
    };
  });
}
