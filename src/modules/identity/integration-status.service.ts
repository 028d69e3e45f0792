import type { AppContext } from '../../context.js';
import type { Principal, SellerScope } from '../../http/auth/principal.js';
import { isoOrNull } from '../../lib/clock.js';
import { firstOrderOf } from '../finance/index.js';
import { type WebhookEndpointHealth, webhookEndpointHealth } from '../webhooks/index.js';
import { whoami } from './whoami.service.js';

type CheckStatus = 'ok' | 'action_required' | 'pending';

/**
 * GET /integration/status: how far this company's integration is in this environment.
 * Every check is derived from what is stored: whoami's blockers, an in-force agreement, a
 * complete footprint (at least one country and one currency), and a first order completed (the
 * first sale or custody pull), and webhook endpoint health. `ready` is true when no check asks
 * for an action. Identity composes the webhooks read service here (webhooks imports nothing from
 * identity, so the import cannot cycle).
 */
export async function integrationStatus(ctx: AppContext, principal: Principal, seller: SellerScope) {
  const [identity, first, webhooks] = await Promise.all([
    whoami(ctx, principal),
    firstOrderOf(ctx.db, seller),
    webhookEndpointHealth(ctx, { companyId: principal.companyId, environment: principal.environment }),
  ]);
  const footprint = identity.footprint;
  const footprintComplete = footprint.countries.length > 0 && footprint.currencies.length > 0;
  const checks: { check: string; status: CheckStatus; action: string | null }[] = [
    {
      check: 'blockers',
      status: identity.integrationReadiness.blockers.length === 0 ? 'ok' : 'action_required',
      action: identity.integrationReadiness.blockers[0]?.action ?? null,
    },
    {
      check: 'active_agreement',
      status: identity.hasActiveBma ? 'ok' : 'action_required',
      action: identity.hasActiveBma ? null : 'review_partner_contracts',
    },
    {
      check: 'footprint',
      status: footprintComplete ? 'ok' : 'action_required',
      action: footprintComplete ? null : 'declare_footprint',
    },
    { check: 'first_order', status: first ? 'ok' : 'pending', action: first ? null : 'place_first_order' },
    webhooksCheck(webhooks),
  ];
  return {
    environment: identity.environment,
    ready: checks.every((c) => c.status !== 'action_required'),
    firstOrderCompleted: first !== undefined,
    firstOrderAt: isoOrNull(first ? Number(first.created_at) : null),
    firstOrderReference: first?.order_reference ?? null,
    blockers: identity.integrationReadiness.blockers,
    hasActiveBma: identity.hasActiveBma,
    footprint: {
      complete: footprintComplete,
      countries: footprint.countries,
      currencies: footprint.currencies,
      countriesWithoutReferenceRate: footprint.countriesWithoutReferenceRate,
    },
    webhooks,
    checks,
  };
}

/**
 * No endpoint is only `pending` (events can be polled from GET /events); an endpoint the circuit
 * breaker disabled (so also: no active endpoint left) needs POST /webhooks/{id}/enable.
 */
function webhooksCheck(webhooks: WebhookEndpointHealth): {
  check: string;
  status: CheckStatus;
  action: string | null;
} {
  if (webhooks.endpointCount === 0)
    return { check: 'webhooks', status: 'pending', action: 'create_webhook_endpoint' };
  if (webhooks.activeCount < webhooks.endpointCount)
    return { check: 'webhooks', status: 'action_required', action: 'enable_webhook_endpoint' };
  return { check: 'webhooks', status: 'ok', action: null };
}
