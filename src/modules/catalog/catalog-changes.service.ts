import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { ChangedField } from '../events/index.js';
import { type Recipient, recordCatalogChange } from '../events/index.js';
import { sellersSeeing, visibleProductIds } from './visibility.repo.js';

export interface AudienceDiff {
  /** Sellers who saw the product before and still do. */
  kept: Recipient[];
  added: Recipient[];
  removed: Recipient[];
}

const toRecipients = (ids: Iterable<string>, environment: string): Recipient[] =>
  [...ids].map((companyId) => ({ companyId, environment }));

/**
 * Runs a publisher-side change to one product and records the catalog changes sellers can
 * observe: `added` for sellers who gain the product, `removed` for those who lose it, `updated`
 * with the changed fields for those who keep it. Returns the audience for events.
 */
export async function changeProduct(
  ctx: AppContext,
  trx: Executor,
  product: { id: string; environment: string },
  changedFields: readonly ChangedField[],
  mutate: () => Promise<void>,
): Promise<AudienceDiff> {
  const now = ctx.clock.now();
  const before = new Set(await sellersSeeing(trx, product.id, product.environment, now));
  await mutate();
  const after = new Set(await sellersSeeing(trx, product.id, product.environment, now));
  const diff: AudienceDiff = {
    kept: toRecipients(
      [...after].filter((s) => before.has(s)),
      product.environment,
    ),
    added: toRecipients(
      [...after].filter((s) => !before.has(s)),
      product.environment,
    ),
    removed: toRecipients(
      [...before].filter((s) => !after.has(s)),
      product.environment,
    ),
  };
  await recordCatalogChange(ctx, trx, diff.added, product.id, 'added', []);
  await recordCatalogChange(ctx, trx, diff.removed, product.id, 'removed', []);
  if (changedFields.length > 0)
    await recordCatalogChange(ctx, trx, diff.kept, product.id, 'updated', changedFields);
  return diff;
}

/**
 * Runs a change to one seller's access to a publisher's catalog (shares, share mode,
 * suspension) and records `added` / `removed`, and `updated` (availability) for the
 * still-visible products named in `touchedProductIds`.
 */
export async function changeSellerAccess(
  ctx: AppContext,
  trx: Executor,
  access: { sellerId: string; publisherId: string; environment: string },
  touchedProductIds: readonly string[],
  mutate: () => Promise<void>,
): Promise<void> {
  const { sellerId, publisherId, environment } = access;
  // One moment for both sides: only the mutation, never the churn cycle, makes the difference.
  const now = ctx.clock.now();
  const before = await visibleProductIds(trx, sellerId, environment, now, publisherId);
  await mutate();
  const after = await visibleProductIds(trx, sellerId, environment, now, publisherId);
  const seller = [{ companyId: sellerId, environment }];
  for (const id of after) if (!before.has(id)) await recordCatalogChange(ctx, trx, seller, id, 'added', []);
  for (const id of before) if (!after.has(id)) await recordCatalogChange(ctx, trx, seller, id, 'removed', []);
  for (const id of new Set(touchedProductIds)) {
    if (before.has(id) && after.has(id))
      await recordCatalogChange(ctx, trx, seller, id, 'updated', ['availability']);
  }
}
