import type { Executor } from '../../db/database.js';

export interface AllocationListFilter {
  sellerId: string;
  environment: string;
  updatedSince?: number;
  after?: readonly [number, string];
  skuIds?: readonly string[];
  limit: number;
}

/** Allocations with their SKU, product and publisher, oldest change first (keyset on updated_at, id). */
export function listAllocations(ex: Executor, filter: AllocationListFilter) {
  let query = ex
    .selectFrom('allocations')
    .innerJoin('skus', 'skus.id', 'allocations.sku_id')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .innerJoin('companies as publisher', 'publisher.id', 'allocations.publisher_company_id')
    .selectAll('allocations')
    .select([
      'skus.code as sku_code',
      'skus.release_id',
      'skus.activation_type',
      'skus.activation_countries',
      'products.id as product_id',
      'products.name as product_name',
      'publisher.name as publisher_name',
    ])
    .where('allocations.seller_company_id', '=', filter.sellerId)
    .where('allocations.environment', '=', filter.environment);
  if (filter.updatedSince !== undefined)
    query = query.where('allocations.updated_at', '>=', filter.updatedSince);
  if (filter.skuIds) query = query.where('allocations.sku_id', 'in', filter.skuIds);
  if (filter.after) {
    const [updatedAt, id] = filter.after;
    query = query.where((eb) =>
      eb.or([
        eb('allocations.updated_at', '>', updatedAt),
        eb.and([eb('allocations.updated_at', '=', updatedAt), eb('allocations.id', '>', id)]),
      ]),
    );
  }
  return query.orderBy('allocations.updated_at').orderBy('allocations.id').limit(filter.limit).execute();
}

export type AllocationListRow = Awaited<ReturnType<typeof listAllocations>>[number];
