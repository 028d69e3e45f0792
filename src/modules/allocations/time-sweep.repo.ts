import type { Executor } from '../../db/database.js';
import { forUpdateSkipLocked } from '../../db/dialect.js';

/** Starts a sweep at `at` the first time any process runs it; later calls change nothing. */
export async function ensureSweep(ex: Executor, name: string, at: number): Promise<void> {
  await ex
    .insertInto('time_sweeps')
    .values({ name, swept_until: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function sweptUntil(ex: Executor, name: string): Promise<number | undefined> {
  const row = await ex
    .selectFrom('time_sweeps')
    .select('swept_until')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? Number(row.swept_until) : undefined;
}

/** The sweep's mark, locked until the transaction ends; undefined while another process holds it. */
export async function claimSweep(trx: Executor, name: string): Promise<number | undefined> {
  const row = await forUpdateSkipLocked(
    trx,
    trx.selectFrom('time_sweeps').select('swept_until').where('name', '=', name),
  ).executeTakeFirst();
  return row ? Number(row.swept_until) : undefined;
}

export async function markSwept(trx: Executor, name: string, at: number): Promise<void> {
  await trx.updateTable('time_sweeps').set({ swept_until: at }).where('name', '=', name).execute();
}

/** SKUs whose release has a price row taking effect in (from, to]. */
export async function skusWithPricesTakingEffect(ex: Executor, from: number, to: number): Promise<string[]> {
  const rows = await ex
    .selectFrom('territory_prices')
    .innerJoin('skus', 'skus.release_id', 'territory_prices.release_id')
    .select('skus.id')
    .distinct()
    .where('territory_prices.effective_at', '>', from)
    .where('territory_prices.effective_at', '<=', to)
    .execute();
  return rows.map((r) => r.id);
}

/** SKUs of products that alternate live and archived on a period (the sandbox churn SKU). */
export function churningSkus(ex: Executor) {
  return ex
    .selectFrom('skus')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .select(['skus.id', 'products.churn_period_hours'])
    .where('products.churn_period_hours', 'is not', null)
    .execute();
}

/** The sellers whose sellability of these SKUs is known (they were told a state), by environment. */
export function knownSellersOf(ex: Executor, skuIds: readonly string[]) {
  return ex
    .selectFrom('sku_sellability')
    .innerJoin('skus', 'skus.id', 'sku_sellability.sku_id')
    .innerJoin('products', 'products.id', 'skus.product_id')
    .select(['sku_sellability.seller_company_id', 'sku_sellability.sku_id', 'products.environment'])
    .where('sku_sellability.sku_id', 'in', skuIds)
    .execute();
}
