import type { Insertable } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { accessibleProducts } from '../catalog/index.js';
import type { PromotionResponse, PromotionsTable } from './promotions.table.js';

export async function insertPromotion(ex: Executor, row: Insertable<PromotionsTable>): Promise<void> {
  await ex.insertInto('promotions').values(row).execute();
}

interface SellerQuery {
  sellerId: string;
  environment: string;
}

/** Promotions with this seller's response, if any: public ones and deals aimed at this seller. */
function promotionsOf(ex: Executor, q: SellerQuery) {
  return ex
    .selectFrom('promotions')
    .leftJoin('promotion_responses as r', (join) =>
      join.onRef('r.promotion_id', '=', 'promotions.id').on('r.seller_company_id', '=', q.sellerId),
    )
    .leftJoin('skus', 'skus.id', 'promotions.sku_id')
    .selectAll('promotions')
    .select(['r.response', 'r.responded_at', 'skus.product_id as sku_product_id'])
    .where('promotions.environment', '=', q.environment)
    .where((eb) =>
      eb.or([
        eb('promotions.seller_company_id', 'is', null),
        eb('promotions.seller_company_id', '=', q.sellerId),
      ]),
    );
}

export type PromotionRow = Awaited<ReturnType<ReturnType<typeof promotionsOf>['execute']>>[number];

type OnSku = SellerQuery & { skuId: string; productId: string; now: string };

/** Promotions on a SKU or its product not ended at `now` (live or still to start), with this seller's response. */
const unendedPromotionsQuery = (db: Executor, v: OnSku) =>
  promotionsOf(db, v)
    .where((eb) =>
      eb.or([eb('promotions.sku_id', '=', v.skuId), eb('promotions.product_id', '=', v.productId)]),
    )
    .where('promotions.ends_at', '>', v.now as unknown as number);

/** Promotions live at `now` on a SKU or its product, with this seller's response. */
export const livePromotionsQuery = (db: Executor, v: OnSku) =>
  unendedPromotionsQuery(db, v).where('promotions.starts_at', '<=', v.now as unknown as number);

/** What `livePromotionsQuery` tests, for rows read earlier (`unendedPromotions`). */
export const isLiveAt = (row: Pick<PromotionRow, 'starts_at' | 'ends_at'>, now: number) =>
  row.starts_at <= now && row.ends_at > now;

const names = ['sellerId', 'environment', 'skuId', 'productId', 'now'] as const;
const livePromotionsOnce = compiledOnce(names, livePromotionsQuery);
const unendedPromotionsOnce = compiledOnce(names, unendedPromotionsQuery);

type OnSkuAt = SellerQuery & { skuId: string; productId: string; now: number };

export async function livePromotions(ex: Executor, q: OnSkuAt): Promise<PromotionRow[]> {
  return (await livePromotionsOnce(ex, q)).rows;
}

export async function unendedPromotions(ex: Executor, q: OnSkuAt): Promise<PromotionRow[]> {
  return (await unendedPromotionsOnce(ex, q)).rows;
}

/**
 * Promotions overlapping [from, to) on products the seller sees at `now`, ordered by start;
 * `after` is a keyset position (starts_at, id).
 */
export function visiblePromotions(
  ex: Executor,
  q: SellerQuery & {
    from: number;
    to: number;
    now: number;
    sourceType?: 'promotion' | 'deal';
    id?: string;
    after?: readonly [number, string];
    limit?: number;
  },
) {
  const visible = accessibleProducts(ex, q.environment, q.now)
    .select('products.id')
    .where('partner_connections.seller_company_id', '=', q.sellerId);
  let query = promotionsOf(ex, q)
    .where((eb) => eb.or([eb('promotions.product_id', 'in', visible), eb('skus.product_id', 'in', visible)]))
    .where('promotions.ends_at', '>', q.from)
    .where('promotions.starts_at', '<', q.to);
  if (q.sourceType) query = query.where('promotions.source_type', '=', q.sourceType);
  if (q.id) query = query.where('promotions.id', '=', q.id);
  if (q.after) {
    const [at, id] = q.after;
    query = query.where((eb) =>
      eb.or([
        eb('promotions.starts_at', '>', at),
        eb.and([eb('promotions.starts_at', '=', at), eb('promotions.id', '>', id)]),
      ]),
    );
  }
  query = query.orderBy('promotions.starts_at').orderBy('promotions.id');
  return (q.limit ? query.limit(q.limit) : query).execute();
}

export async function saveResponse(
  ex: Executor,
  row: { promotion_id: string; seller_company_id: string; response: PromotionResponse; responded_at: number },
): Promise<void> {
  await ex
    .insertInto('promotion_responses')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['promotion_id', 'seller_company_id'])
        .doUpdateSet({ response: row.response, responded_at: row.responded_at }),
    )
    .execute();
}
