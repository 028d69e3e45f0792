import type { AppContext } from '../../context.js';
import { ensureSandboxProvisioned } from '../../modules/sandbox/index.js';
import type { Principal, SellerScope } from './principal.js';

/**
 * The seller a principal acts for. A sandbox seller gets its view of the fixture catalog on
 * first use; the sandbox module remembers that per process, so later requests only look it up.
 */
export async function resolveSellerScope(
  ctx: AppContext,
  principal: Pick<Principal, 'companyId' | 'environment'>,
): Promise<SellerScope> {
  if (principal.environment === 'sandbox') await ensureSandboxProvisioned(ctx, principal.companyId);
  return { sellerId: principal.companyId, environment: principal.environment };
}
