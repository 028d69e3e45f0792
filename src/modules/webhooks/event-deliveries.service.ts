import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import { isoOrNull } from '../../lib/clock.js';
import * as repo from './deliveries.repo.js';
import { envelopeBody } from './envelope.js';
import { microIso } from './micro-time.js';
import { attemptView, tenantOf } from './webhooks.service.js';

/**
 * One event across the tenant's endpoints: its envelope as every endpoint receives it, and per
 * endpoint of the environment its deliveries (a resend adds one) with their attempts, oldest
 * first. An endpoint that never got the event is listed with no delivery, so it can be sent
 * there. An event of another company or environment is not found.
 */
export async function eventDeliveries(ctx: AppContext, p: Principal, eventId: string) {
  const tenant = tenantOf(p);
  const event = await repo.tenantEventOf(ctx.db, tenant, eventId);
  if (!event) throw fail('NOT_FOUND', `Event ${eventId} not found.`);
  const endpoints = await repo.endpointSummariesOf(ctx.db, tenant);
  const deliveries = await repo.deliveriesOfEvent(ctx.db, tenant, eventId);
  const attempts =
    deliveries.length === 0
      ? []
      : await repo.attemptsOfDeliveries(
          ctx.db,
          deliveries.map((d) => d.id),
        );
  const now = ctx.clock.now();
  return {
    eventId: event.event_id,
    eventType: event.event_type,
    createdAt: microIso(event.created_at_us),
    publishedAt: event.published_at_us === null ? null : microIso(event.published_at_us),
    envelope: JSON.parse(envelopeBody(event)) as Record<string, unknown>,
    endpoints: endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      url: endpoint.url,
      endpointStatus: endpoint.status,
      deliveries: deliveries
        .filter((d) => d.endpoint_id === endpoint.id)
        .map((d) => ({
          deliveryId: d.id,
          status: d.status,
          createdAt: new Date(d.created_at).toISOString(),
          nextAttemptAt: d.status === 'pending' ? isoOrNull(d.next_attempt_at) : null,
          attempts: attempts
            .filter((a) => a.delivery_id === d.id)
            .map((a) =>
              attemptView(a, d.status === 'pending' && d.attempt_base + d.attempts === a.attempt, now),
            ),
        })),
    })),
  };
}
