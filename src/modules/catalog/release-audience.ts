import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { Recipient } from '../events/index.js';

/**
 * Who hears of a release's progress (`product.announced`, `release.available`,
 * `release.date_changed`): the sellers who see the product, and every seller holding an
 * accepted pre-order of one of its SKUs, even one that no longer sees the product (checkout
 * knows those: `AppContext.promises`).
 */
export async function releaseAudience(
  ctx: AppContext,
  ex: Executor,
  releaseId: string,
  visible: readonly Recipient[],
): Promise<Recipient[]> {
  const audience = new Map(visible.map((r) => [`${r.companyId}|${r.environment}`, r]));
  for (const holder of await ctx.promises.preorderHolders(ex, releaseId)) {
    const recipient = { companyId: holder.seller_company_id, environment: holder.environment };
    audience.set(`${recipient.companyId}|${recipient.environment}`, recipient);
  }
  return [...audience.values()];
}
