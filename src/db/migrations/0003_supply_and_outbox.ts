import { type Kysely, sql } from 'kysely';
import { sequenceColumn, sequenceType } from '../dialect.js';

/** Shares, allocations, key pools and keys, promotions, catalog change rows and the outbox. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('partner_connections.id'))
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('publisher_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull().references('skus.id'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('shares_seller_sku')
    .on('shares')
    .columns(['seller_company_id', 'sku_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('allocations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('readable_id', 'text', (c) => c.notNull().unique())
    .addColumn('seller_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('publisher_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('partner_connections.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull().references('skus.id'))
    .addColumn('quantity_limit', 'bigint', (c) => c.notNull())
    .addColumn('quantity_pulled', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('price_per_key_cents', 'bigint')
    .addColumn('currency_code', 'text')
    .addColumn('currency_exponent', 'integer')
    .addColumn('business_model', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('hot_drop', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('holds_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('low_stock_threshold', 'bigint')
    .addColumn('refund_policy', 'text')
    .addColumn('consumer_geo_attest_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('request_policy', 'text', (c) => c.notNull())
    .addColumn('auto_approve_max', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('allocations_seller')
    .on('allocations')
    .columns(['seller_company_id', 'environment', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('allocations_sku')
    .on('allocations')
    .columns(['sku_id', 'seller_company_id'])
    .execute();

  await db.schema
    .createTable('key_pools')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull().references('skus.id'))
    .addColumn('allocation_id', 'text', (c) => c.references('allocations.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('replenish_mode', 'text', (c) => c.notNull())
    .addColumn('pinned_available', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('key_pools_sku').on('key_pools').columns(['sku_id', 'kind']).execute();

  await db.schema
    .createTable('game_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pool_id', 'text', (c) => c.notNull().references('key_pools.id'))
    .addColumn('sku_id', 'text', (c) => c.notNull())
    .addColumn('ciphertext', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('sold_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Claims read the oldest available keys of a pool; sold keys leave this partial index, so it
  // stays as small as the stock however many keys were ever sold.
  await db.schema
    .createIndex('game_keys_claim')
    .on('game_keys')
    .columns(['pool_id', 'id'])
    .where(sql.ref('state'), '=', sql.lit('available'))
    .execute();
  await db.schema
    .createIndex('game_keys_order')
    .on('game_keys')
    .column('order_id')
    .where(sql.ref('order_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('promotions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('publisher_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.references('products.id'))
    .addColumn('sku_id', 'text', (c) => c.references('skus.id'))
    .addColumn('seller_company_id', 'text', (c) => c.references('companies.id'))
    .addColumn('discount_percent', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('promotions_sku').on('promotions').columns(['sku_id', 'starts_at']).execute();

  await db.schema
    .createTable('catalog_changes')
    .addColumn('seq', sequenceType(db), sequenceColumn(db))
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('changed_fields', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('catalog_changes_seller')
    .on('catalog_changes')
    .columns(['seller_company_id', 'environment', 'occurred_at', 'seq'])
    .execute();

  await db.schema
    .createTable('sku_sellability')
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull())
    .addColumn('sellable', 'integer', (c) => c.notNull())
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sku_sellability_pk', ['seller_company_id', 'sku_id'])
    .execute();

  await db.schema
    .createTable('outbox_events')
    .addColumn('seq', sequenceType(db), sequenceColumn(db))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_version', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at_us', 'bigint', (c) => c.notNull())
    .addColumn('deliver_after', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_events_company')
    .on('outbox_events')
    .columns(['company_id', 'environment', 'created_at_us', 'seq'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'outbox_events',
    'sku_sellability',
    'catalog_changes',
    'promotions',
    'game_keys',
    'key_pools',
    'allocations',
    'shares',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
