import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { LaunchPhase, TradingState } from './catalog.table.js';
import { accessibleProducts } from './visibility.repo.js';

/** Every condition given must hold (the lists: each of their entries). */
export interface ProductListFilter {
  sellerId: string;
  environment: string;
  /** The moment visibility is judged at (the sandbox churn fixture's cycle). */
  nowMs: number;
  productIds?: readonly string[];
  publisherIds?: readonly string[];
  slugs?: readonly string[];
  /** Name or slug contains it. */
  q?: string;
  nameContains?: readonly string[];
  updatedSince?: number;
  launchPhases?: LaunchPhase[];
  tradingStates?: TradingState[];
  before?: readonly [number, string];
  limit?: number;
}

/** `%text%` for LIKE, case-folded, with the pattern characters of `text` escaped. */
const containing = (text: string) =>
  sql`${`%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

/** Products the seller can see (`accessibleProducts`), newest first (keyset on created_at, id). */
export function listVisibleProducts(ex: Executor, f: ProductListFilter) {
  let query = accessibleProducts(ex, f.environment, f.nowMs)
    .selectAll('products')
    .where('partner_connections.seller_company_id', '=', f.sellerId);
  // An empty list admits nothing (and `in ()` is no SQL).
  if ([f.productIds, f.launchPhases, f.tradingStates].some((list) => list?.length === 0)) {
    return Promise.resolve([]);
  }
  if (f.productIds) query = query.where('products.id', 'in', f.productIds);
  for (const id of f.publisherIds ?? []) query = query.where('products.publisher_company_id', '=', id);
  for (const slug of f.slugs ?? []) query = query.where('products.slug', '=', slug);
  if (f.q) {
    const pattern = containing(f.q);
    query = query.where((eb) =>
      eb.or([eb(sql`lower(products.name)`, 'like', pattern), eb(sql`lower(products.slug)`, 'like', pattern)]),
    );
  }
  for (const name of f.nameContains ?? [])
    query = query.where(sql`lower(products.name)`, 'like', containing(name));
  if (f.updatedSince !== undefined) query = query.where('products.updated_at', '>=', f.updatedSince);
  if (f.launchPhases) query = query.where('products.launch_phase', 'in', f.launchPhases);
  if (f.tradingStates) query = query.where('products.trading_state', 'in', f.tradingStates);
  if (f.before) {
    const [createdAt, id] = f.before;
    query = query.where((eb) =>
      eb.or([
        eb('products.created_at', '<', createdAt),
        eb.and([eb('products.created_at', '=', createdAt), eb('products.id', '<', id)]),
      ]),
    );
  }
  query = query.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc');
  return f.limit ? query.limit(f.limit).execute() : query.execute();
}

export type ProductRow = Awaited<ReturnType<typeof listVisibleProducts>>[number];

export function skusOfProducts(ex: Executor, productIds: readonly string[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return ex.selectFrom('skus').selectAll().where('product_id', 'in', productIds).orderBy('code').execute();
}

export function releasesOfProducts(ex: Executor, productIds: readonly string[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('releases')
    .selectAll()
    .where('product_id', 'in', productIds)
    .orderBy('created_at')
    .execute();
}

export function editionsOf(ex: Executor, productId: string) {
  return ex
    .selectFrom('editions')
    .selectAll()
    .where('product_id', '=', productId)
    .orderBy('created_at')
    .execute();
}

export function relationsOf(ex: Executor, productId: string) {
  return ex.selectFrom('product_relations').selectAll().where('product_id', '=', productId).execute();
}

/** The lowest wholesale price of the seller's active allocations, per product. */
export function wholesaleFloors(
  ex: Executor,
  sellerId: string,
  environment: string,
  productIds: readonly string[],
) {
  if (productIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('allocations')
    .innerJoin('skus', 'skus.id', 'allocations.sku_id')
    .select(['skus.product_id', (eb) => eb.fn.min<number>('allocations.price_per_key_cents').as('floor')])
    .where('allocations.seller_company_id', '=', sellerId)
    .where('allocations.environment', '=', environment)
    .where('allocations.status', '=', 'active')
    .where('skus.product_id', 'in', productIds)
    .groupBy('skus.product_id')
    .execute();
}

/** Just the id and change stamp of each visible product: the cheap input of snapshot ETags. */
export function visibleProductStamps(ex: Executor, sellerId: string, environment: string, nowMs: number) {
  return accessibleProducts(ex, environment, nowMs)
    .select(['products.id', 'products.updated_at'])
    .where('partner_connections.seller_company_id', '=', sellerId)
    .execute();
}
