import type { AppContext } from '../../context.js';
import { isoOrNull } from '../../lib/clock.js';
import * as endpointsRepo from './endpoints.repo.js';

/**
 * The health of a company's webhook endpoints in one environment, for GET /integration/status:
 * each endpoint's state (a disabled endpoint was disabled by the circuit breaker, with its reason),
 * its run of consecutive failures, its last successful delivery, and its deliveries still awaiting
 * delivery (`pending`, buffered while disabled included) or given up (`failed`).
 */
export async function webhookEndpointHealth(ctx: AppContext, tenant: endpointsRepo.Tenant) {
  const rows = await endpointsRepo.endpointHealthOf(ctx.db, tenant);
  const endpoints = rows.map((r) => ({
    id: r.id,
    host: new URL(r.url).host,
    status: r.status,
    disabledReason: r.disabled_reason,
    disabledAt: isoOrNull(r.disabled_at),
    enableWith: r.status === 'disabled' ? `POST /webhooks/${r.id}/enable` : null,
    consecutiveFailures: Number(r.consecutive_failures),
    lastSuccessfulDeliveryAt: isoOrNull(r.last_success_at),
    deliveries: { pending: Number(r.pending_count ?? 0), failed: Number(r.failed_count ?? 0) },
  }));
  return {
    endpointCount: endpoints.length,
    activeCount: endpoints.filter((e) => e.status === 'active').length,
    endpoints,
  };
}

export type WebhookEndpointHealth = Awaited<ReturnType<typeof webhookEndpointHealth>>;
