import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { availableInPools } from '../inventory/index.js';
import type { AllocationRow } from './allocations.repo.js';

/** A SKU by code or id with what the territory predicate needs, in one environment. */
export function findSkuFacts(ex: Executor, environment: string, ref: { code?: string; id?: string }) {
  let query = ex
    .selectFrom('skus')
    .innerJoin('releases', 'releases.id', 'skus.release_id')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .select([
      'skus.id',
      'skus.code',
      'skus.release_id',
      'skus.product_id',
      'skus.activation_type',
      'skus.activation_countries',
      'skus.region_locks',
      'releases.excluded_countries',
      'products.publisher_company_id',
    ])
    .where('products.environment', '=', environment);
  query = ref.id ? query.where('skus.id', '=', ref.id) : query.where('skus.code', '=', ref.code ?? '');
  return query.executeTakeFirst();
}

/** The seller's allocations on one SKU, newest first. */
export const allocationsOnSkuQuery = (
  db: Executor,
  v: { sellerId: string; environment: string; skuId: string },
) =>
  db
    .selectFrom('allocations')
    .selectAll()
    .where('seller_company_id', '=', v.sellerId)
    .where('environment', '=', v.environment)
    .where('sku_id', '=', v.skuId)
    .orderBy('created_at', 'desc');

const allocationsOnSku = compiledOnce(['sellerId', 'environment', 'skuId'], allocationsOnSkuQuery);

/** The seller's allocations on these SKUs, newest first (one SKU, the order path's: compiled once). */
export async function allocationsOnSkus(
  ex: Executor,
  sellerId: string,
  environment: string,
  skuIds: readonly string[],
): Promise<AllocationRow[]> {
  if (skuIds.length === 1) {
    return (await allocationsOnSku(ex, { sellerId, environment, skuId: skuIds[0] })).rows;
  }
  return ex
    .selectFrom('allocations')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('environment', '=', environment)
    .where('sku_id', 'in', skuIds)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Everything batch availability needs for many SKUs of one seller, in four queries. */
export async function stockFacts(
  ex: Executor,
  sellerId: string,
  environment: string,
  skuIds: readonly string[],
) {
  if (skuIds.length === 0) return { allocations: [], pools: [], counts: [] };
  const allocations = await allocationsOnSkus(ex, sellerId, environment, skuIds);
  const pools = await ex
    .selectFrom('key_pools')
    .selectAll()
    .where('sku_id', 'in', skuIds)
    .where('environment', '=', environment)
    .where((eb) =>
      eb.or([
        eb('kind', '=', 'shared'),
        eb('allocation_id', 'in', allocations.length ? allocations.map((a) => a.id) : ['']),
      ]),
    )
    .execute();
  const counted = pools.filter((p) => p.replenish_mode === 'none').map((p) => p.id);
  const counts = counted.length ? await availableInPools(ex, counted) : [];
  return { allocations, pools, counts };
}
