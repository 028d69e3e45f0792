import { type ExpressionBuilder, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database, Executor } from '../../db/database.js';

const HOUR_MS = 3_600_000;

/**
 * Catalog access: a product is visible to a seller when it is published (not draft,
 * not archived, whether by `isArchived` or the legacy `status`), is not the sandbox churn
 * fixture in an archived period, and the seller's connection to its publisher shares the whole
 * catalog, or shares (and has not suspended) at least one SKU of the product.
 */
const grantsAccess = (eb: ExpressionBuilder<Database, 'products' | 'partner_connections'>) =>
  eb.or([
    eb('partner_connections.catalog_share_mode', '=', 'whole_catalog'),
    eb.and([
      eb('partner_connections.shares_suspended', '=', 0),
      eb.exists(
        eb
          .selectFrom('shares')
          .innerJoin('skus', 'skus.id', 'shares.sku_id')
          .select(sql`1`.as('one'))
          .whereRef('skus.product_id', '=', 'products.id')
          .whereRef('shares.seller_company_id', '=', 'partner_connections.seller_company_id')
          .where('shares.active', '=', 1),
      ),
    ]),
  ]);

/**
 * Live in the churn cycle at `nowMs`: `isChurnedAway` (sellability.ts) in SQL, so that pages,
 * counts and related products leave the fixture out in the query itself.
 */
const liveInChurnCycle = (nowMs: number) => (eb: ExpressionBuilder<Database, 'products'>) =>
  eb.or([
    eb('products.churn_period_hours', 'is', null),
    eb('products.churn_period_hours', '<=', 0),
    sql<boolean>`(cast(${nowMs} as bigint) / (cast(nullif(products.churn_period_hours, 0) as bigint) * ${HOUR_MS})) % 2 = 0`,
  ]);

/** Products joined to every connection that grants access to them, in one environment, at `nowMs`. */
export function accessibleProducts(ex: Executor, environment: string, nowMs: number) {
  return ex
    .selectFrom('products')
    .innerJoin('partner_connections', (join) =>
      join
        .onRef('partner_connections.publisher_company_id', '=', 'products.publisher_company_id')
        .on('partner_connections.environment', '=', environment),
    )
    .where('products.environment', '=', environment)
    .where('products.status', 'not in', ['draft', 'archived'])
    .where('products.is_archived', '=', 0)
    .where(liveInChurnCycle(nowMs))
    .where(grantsAccess);
}

export async function visibleProductIds(
  ex: Executor,
  sellerId: string,
  environment: string,
  nowMs: number,
  publisherId?: string,
) {
  let query = accessibleProducts(ex, environment, nowMs)
    .select('products.id')
    .where('partner_connections.seller_company_id', '=', sellerId);
  if (publisherId) query = query.where('products.publisher_company_id', '=', publisherId);
  return new Set((await query.execute()).map((r) => r.id));
}

/** Sellers that currently see the product. */
export async function sellersSeeing(
  ex: Executor,
  productId: string,
  environment: string,
  nowMs: number,
): Promise<string[]> {
  const rows = await accessibleProducts(ex, environment, nowMs)
    .select('partner_connections.seller_company_id')
    .where('products.id', '=', productId)
    .execute();
  return rows.map((r) => r.seller_company_id);
}

/** The product, once per connection granting the seller access to it now (none: not visible). */
export const productVisibleQuery = (
  db: Executor,
  v: { environment: string; now: string; productId: string; sellerId: string },
) =>
  accessibleProducts(db, v.environment, v.now as unknown as number)
    .select('products.id')
    .where('products.id', '=', v.productId)
    .where('partner_connections.seller_company_id', '=', v.sellerId);

/** Whether one product is in the seller's visible catalog now. */
const productVisible = compiledOnce(['environment', 'now', 'productId', 'sellerId'], productVisibleQuery);

export async function isProductVisible(
  ex: Executor,
  sellerId: string,
  environment: string,
  productId: string,
  now: number,
): Promise<boolean> {
  const { rows } = await productVisible(ex, { environment, now, productId, sellerId });
  return rows.length > 0;
}
