import type { Executor } from '../../db/database.js';

/** Per SKU, the facts of every sellability gate for one seller. */
export function skuGateRows(ex: Executor, sellerId: string, environment: string, skuIds: readonly string[]) {
  return ex
    .selectFrom('skus')
    .innerJoin('releases', 'releases.id', 'skus.release_id')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .leftJoin('partner_connections as pc', (join) =>
      join
        .onRef('pc.publisher_company_id', '=', 'products.publisher_company_id')
        .on('pc.seller_company_id', '=', sellerId)
        .on('pc.environment', '=', environment),
    )
    .leftJoin('shares', (join) =>
      join
        .onRef('shares.sku_id', '=', 'skus.id')
        .on('shares.seller_company_id', '=', sellerId)
        .on('shares.active', '=', 1),
    )
    .select([
      'skus.id as sku_id',
      'skus.code as sku_code',
      'skus.product_id',
      'skus.release_id',
      'skus.delisted as sku_delisted',
      'releases.state as release_state',
      'releases.delisted as release_delisted',
      'products.status as product_status',
      'products.is_archived',
      'products.trading_state',
      'products.launch_phase',
      'products.churn_period_hours',
      'pc.shares_suspended',
      'shares.id as share_id',
    ])
    .where('skus.id', 'in', skuIds)
    .where('products.environment', '=', environment)
    .execute();
}

export function allocationStatuses(
  ex: Executor,
  sellerId: string,
  environment: string,
  skuIds: readonly string[],
) {
  return ex
    .selectFrom('allocations')
    .select(['sku_id', 'status'])
    .where('seller_company_id', '=', sellerId)
    .where('environment', '=', environment)
    .where('sku_id', 'in', skuIds)
    .orderBy('created_at', 'desc')
    .execute();
}

export function storedStates(ex: Executor, sellerId: string, skuIds: readonly string[]) {
  return ex
    .selectFrom('sku_sellability')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('sku_id', 'in', skuIds)
    .execute();
}

export async function storeState(
  ex: Executor,
  sellerId: string,
  skuId: string,
  sellable: boolean,
  reasons: string[],
  at: number,
) {
  const values = { sellable: sellable ? 1 : 0, reasons: JSON.stringify(reasons), updated_at: at };
  await ex
    .insertInto('sku_sellability')
    .values({ seller_company_id: sellerId, sku_id: skuId, ...values })
    .onConflict((oc) => oc.columns(['seller_company_id', 'sku_id']).doUpdateSet(values))
    .execute();
}

/** SKU ids of a publisher's catalog in an environment. */
export function publisherSkuIds(ex: Executor, publisherId: string, environment: string) {
  return ex
    .selectFrom('skus')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .select('skus.id')
    .where('products.publisher_company_id', '=', publisherId)
    .where('products.environment', '=', environment)
    .execute();
}

/** Sellers connected to a publisher in an environment. */
export function connectedSellers(ex: Executor, publisherId: string, environment: string) {
  return ex
    .selectFrom('partner_connections')
    .select('seller_company_id')
    .where('publisher_company_id', '=', publisherId)
    .where('environment', '=', environment)
    .execute();
}
