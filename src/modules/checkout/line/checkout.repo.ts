import { type RawBuilder, sql } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.js';
import type { Executor } from '../../../db/database.js';

const skuByCode = compiledOnce(['environment', 'code'], (db, v) =>
  db
    .selectFrom('skus')
    .innerJoin('releases', 'releases.id', 'skus.release_id')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .select([
      'skus.id',
      'skus.code',
      'skus.platform',
      'skus.release_id',
      'skus.product_id',
      'skus.activation_type',
      'skus.activation_countries',
      'skus.region_locks',
      'releases.excluded_countries',
      'releases.release_date',
      'products.publisher_company_id',
      'products.launch_phase',
      'products.preorder_enabled',
      'products.preorder_start',
      'products.preorder_end',
      'products.churn_period_hours',
    ])
    .where('products.environment', '=', v.environment)
    .where('skus.code', '=', v.code),
);

/** A SKU by code in one environment with everything checkout's gates read about it. */
export async function skuForCheckout(ex: Executor, environment: string, code: string) {
  return (await skuByCode(ex, { environment, code })).rows[0];
}
export type CheckoutSku = NonNullable<Awaited<ReturnType<typeof skuForCheckout>>>;

const allRates = compiledOnce([], (db) =>
  db.selectFrom('reference_rates').select(['currency_code', 'units_per_usd']),
);

export async function referenceRates(ex: Executor): Promise<Map<string, string>> {
  const { rows } = await allRates(ex, {});
  return new Map(rows.map((r) => [r.currency_code, r.units_per_usd]));
}

/** The SKU code of one of the seller's allocations, by id or readable id. */
export function allocationSku(ex: Executor, sellerId: string, environment: string, idOrReadable: string) {
  return ex
    .selectFrom('allocations')
    .innerJoin('skus', 'skus.id', 'allocations.sku_id')
    .select(['skus.code'])
    .where('allocations.seller_company_id', '=', sellerId)
    .where('allocations.environment', '=', environment)
    .where((eb) =>
      eb.or([eb('allocations.id', '=', idOrReadable), eb('allocations.readable_id', '=', idOrReadable)]),
    )
    .executeTakeFirst();
}

/** The catalog version row (also a subquery of the quote's one-statement reads, hot-reads.ts). */
export const catalogVersionQuery = (db: Executor) =>
  db.selectFrom('catalog_version').select('version').where('id', '=', 1);

const versionRow = compiledOnce([], catalogVersionQuery);

/** The catalog version now (docs/checkout.md, "Reads before the transaction: the catalog cache"). */
export async function readCatalogVersion(ex: Executor): Promise<number> {
  const { rows } = await versionRow(ex, {});
  return Number(rows[0]?.version ?? 0);
}

/**
 * PostgreSQL, inside a write statement: whether the catalog is still at `version`, which the
 * request judged under without reading it (`Quote.versionToProve`).
 */
export const catalogStillAt = (version: number): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from catalog_version where id = 1 and version = ${version}::bigint)`;
