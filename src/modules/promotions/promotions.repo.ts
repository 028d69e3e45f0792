import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { PromotionsTable } from './promotions.table.js';

export async function insertPromotion(ex: Executor, row: Insertable<PromotionsTable>): Promise<void> {
  await ex.insertInto('promotions').values(row).execute();
}

/** Promotions live at `now` on a SKU or its product: public ones, and deals aimed at this seller. */
export function livePromotions(
  ex: Executor,
  q: { skuId: string; productId: string; sellerId: string; environment: string; now: number },
) {
  return ex
    .selectFrom('promotions')
    .selectAll()
    .where('environment', '=', q.environment)
    .where((eb) => eb.or([eb('sku_id', '=', q.skuId), eb('product_id', '=', q.productId)]))
    .where((eb) => eb.or([eb('seller_company_id', 'is', null), eb('seller_company_id', '=', q.sellerId)]))
    .where('starts_at', '<=', q.now)
    .where('ends_at', '>', q.now)
    .execute();
}
