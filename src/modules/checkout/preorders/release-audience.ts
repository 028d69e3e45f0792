import type { Executor } from '../../../db/database.js';
import type { Recipient } from '../../events/index.js';
import { preorderHoldersOfRelease } from './preorders.repo.js';

/**
 * Who hears of a release's progress (`product.announced`, `release.available`,
 * `release.date_changed`): the sellers who see the product, and every seller holding an
 * accepted pre-order of one of its SKUs, even one that no longer sees the product.
 */
export async function releaseAudience(
  ex: Executor,
  releaseId: string,
  visible: readonly Recipient[],
): Promise<Recipient[]> {
  const audience = new Map(visible.map((r) => [`${r.companyId}|${r.environment}`, r]));
  for (const holder of await preorderHoldersOfRelease(ex, releaseId)) {
    const recipient = { companyId: holder.seller_company_id, environment: holder.environment };
    audience.set(`${recipient.companyId}|${recipient.environment}`, recipient);
  }
  return [...audience.values()];
}
