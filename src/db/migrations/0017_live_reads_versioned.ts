import type { Kysely } from 'kysely';
import { bumpCatalogVersionOnChangesOf, dropCatalogVersionTriggerOf } from './0009_order_path.js';

/**
 * The order path, third step (docs/checkout.md, "Reads before the transaction"): the quote's
 * last uncached reads (the seller's grants on the SKU, the SKU's promotions with the seller's
 * response, the product's visibility) are cached under the catalog version too, so the tables
 * they read bump it. A grant bumps it when it is created, removed, or any of its terms or its
 * status is set, but not when an order moves its counters (`quantity_pulled`, `updated_at`)
 * or a promise moves `promise_version`: those change with every order, and the order path
 * proves them in its own statements. A column added to `allocations` later joins this list
 * unless it is such a counter.
 */
export const GRANT_TERMS = [
  'id',
  'readable_id',
  'seller_company_id',
  'publisher_company_id',
  'connection_id',
  'environment',
  'sku_id',
  'quantity_limit',
  'price_per_key_cents',
  'currency_code',
  'currency_exponent',
  'business_model',
  'status',
  'payment_status',
  'hot_drop',
  'holds_enabled',
  'reservation_max_quantity',
  'low_stock_threshold',
  'refund_policy',
  'consumer_geo_attest_required',
  'request_policy',
  'auto_approve_max',
  'created_at',
] as const;

const WHOLLY = ['promotions', 'promotion_responses'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await bumpCatalogVersionOnChangesOf(db, 'allocations', GRANT_TERMS);
  for (const table of WHOLLY) await bumpCatalogVersionOnChangesOf(db, table);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['allocations', ...WHOLLY]) await dropCatalogVersionTriggerOf(db, table);
}
