import { type Expression, type RawBuilder, sql } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.js';
import type { Executor } from '../../../db/database.js';
import { isPostgres } from '../../../db/dialect.js';
import { type AllocationRow, allocationsOnSkuQuery, sellerAllocationsOn } from '../../allocations/index.js';
import { isProductVisible, productVisibleQuery } from '../../catalog/index.js';
import { livePromotions, livePromotionsQuery, type PromotionRow } from '../../promotions/index.js';
import { type CheckoutSku, catalogVersionQuery } from './checkout.repo.js';

/** The reads of a quote that no cache serves: they move with time or with every order. */
export interface LiveReads {
  /** Whether the SKU's product is in the seller's catalog now (`isProductVisible`). */
  visible: boolean;
  /** The seller's allocations on the SKU, newest first (`sellerAllocationsOn`). */
  allocations: AllocationRow[];
  /** The promotions live now on the SKU or its product, with the seller's response (`livePromotions`). */
  promotionRows: PromotionRow[];
}

export const NOTHING: LiveReads = { visible: false, allocations: [], promotionRows: [] };

/** Who reads which SKU when. */
export interface LiveTarget {
  sellerId: string;
  environment: string;
  now: number;
}

/** Rows of `query` as one json array (`[]` for none), in `order` if given. */
const jsonRows = <R>(query: Expression<unknown>, order?: RawBuilder<unknown>) => {
  const ordered = order ? sql` order by ${order}` : sql``;
  return sql<R[]>`(select coalesce(json_agg(item${ordered}), '[]'::json) from ${query} as item)`;
};

/**
 * PostgreSQL: the version, visibility, allocations and live promotions in one statement (one
 * snapshot), built from the same query builders as the separate reads. JSON carries every column
 * of these rows as the separate reads return them: text as strings, integer and bigint (epoch ms,
 * counters; all below 2^53) as numbers, null as null. A column of another type (numeric,
 * timestamptz) would differ: the equality test in hot-reads.test.ts compares every column.
 */
const oneStatement = compiledOnce(['sellerId', 'environment', 'skuId', 'productId', 'now'], (db, v) =>
  db.selectNoFrom((eb) => [
    catalogVersionQuery(db).as('version'),
    eb.exists(productVisibleQuery(db, v)).as('visible'),
    jsonRows<AllocationRow>(allocationsOnSkuQuery(db, v), sql`item.created_at desc`).as('allocations'),
    jsonRows<PromotionRow>(livePromotionsQuery(db, v)).as('promotions'),
  ]),
);

/** The one statement for a SKU (PostgreSQL only): the catalog version with the live reads. */
export async function readTogether(
  ex: Executor,
  t: LiveTarget,
  sku: Pick<CheckoutSku, 'id' | 'product_id'>,
): Promise<LiveReads & { version: number }> {
  const { rows } = await oneStatement(ex, {
    sellerId: t.sellerId,
    environment: t.environment,
    skuId: sku.id,
    productId: sku.product_id,
    now: t.now,
  });
  const row = rows[0]!;
  return {
    version: Number(row.version ?? 0),
    visible: row.visible === true,
    allocations: row.allocations,
    promotionRows: row.promotions,
  };
}

/** The three reads one at a time (SQLite, where a query costs no round trip). */
async function readApart(ex: Executor, t: LiveTarget, sku: CheckoutSku): Promise<LiveReads> {
  const visible = await isProductVisible(ex, t.sellerId, t.environment, sku.product_id, t.now);
  if (!visible) return NOTHING;
  const [allocations, promotionRows] = await Promise.all([
    sellerAllocationsOn(ex, t.sellerId, t.environment, [sku.id]),
    livePromotions(ex, { ...t, skuId: sku.id, productId: sku.product_id }),
  ]);
  return { visible, allocations, promotionRows };
}

/**
 * Whether the live reads and the catalog version come back in one statement (PostgreSQL, where
 * each query is a round trip), so a quote may read them before it knows the version.
 */
export const readsLiveInOneStatement = (ex: Executor): boolean => isPostgres(ex);

/** The live reads of a SKU: in one statement where the engine makes that pay, else one at a time. */
export const liveReadsOf = (ex: Executor, t: LiveTarget, sku: CheckoutSku): Promise<LiveReads> =>
  readsLiveInOneStatement(ex) ? readTogether(ex, t, sku) : readApart(ex, t, sku);
