import type { Executor } from '../../db/database.js';

export function sandboxProductBySlug(ex: Executor, slug: string) {
  return ex
    .selectFrom('products')
    .selectAll()
    .where('environment', '=', 'sandbox')
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export function setProductPlatforms(
  ex: Executor,
  productId: string,
  platforms: { code: string }[],
  now: number,
) {
  return ex
    .updateTable('products')
    .set({ platforms: JSON.stringify(platforms), updated_at: now })
    .where('id', '=', productId)
    .execute();
}

export function firstReleaseOf(ex: Executor, productId: string) {
  return ex
    .selectFrom('releases')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('created_at')
    .executeTakeFirst();
}

export function hasPrices(ex: Executor, releaseId: string) {
  return ex
    .selectFrom('territory_prices')
    .select('id')
    .where('release_id', '=', releaseId)
    .executeTakeFirst();
}

export function agreementOf(ex: Executor, connectionId: string) {
  return ex
    .selectFrom('agreements')
    .select('id')
    .where('connection_id', '=', connectionId)
    .executeTakeFirst();
}

export function allocationOf(ex: Executor, sellerId: string, skuId: string) {
  return ex
    .selectFrom('allocations')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('sku_id', '=', skuId)
    .where('environment', '=', 'sandbox')
    .executeTakeFirst();
}
