import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { isoOrNull } from '../../lib/clock.js';
import { firstOrderOf } from '../finance/finance.service.js';
import { sellerScope } from '../sandbox/sandbox.service.js';
import { whoami } from './whoami.service.js';

type CheckStatus = 'ok' | 'action_required' | 'pending';

/**
 * GET /integration/status (SPEC 4.4): how far this company's integration is in this environment.
 * Every check is derived from what is stored: whoami's blockers, an in-force agreement, a
 * complete footprint (at least one country and one currency), and a first order completed (the
 * first sale or custody pull). `ready` is true when no check asks for an action.
 */
export async function integrationStatus(ctx: AppContext, principal: Principal) {
  const scope = await sellerScope(ctx, principal);
  const [identity, first] = await Promise.all([whoami(ctx, principal), firstOrderOf(ctx.db, scope)]);
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
    checks,
  };
}
