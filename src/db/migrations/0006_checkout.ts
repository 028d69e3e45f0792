import { type Kysely, sql } from 'kysely';

/** Sealed idempotent replays; orders, checkout holds, spent geo attestations, keyless redemptions, finance sale lines and activity. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  // Replays of key-bearing responses hold plaintext keys: such bodies are stored sealed.
  await db.schema
    .alterTable('idempotency_records')
    .addColumn('response_sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('readable_id', 'text', (c) => c.notNull().unique())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('reference_owner', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('delivery', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull())
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('allocation_id', 'text', (c) => c.notNull().references('allocations.id'))
    .addColumn('publisher_company_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('pulled', 'bigint', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint')
    .addColumn('initial_unit_price_cents', 'bigint')
    .addColumn('currency_code', 'text')
    .addColumn('country_code', 'text')
    .addColumn('wholesale_unit_price_cents', 'bigint')
    .addColumn('wholesale_currency_code', 'text')
    .addColumn('promo', 'text')
    .addColumn('hold_id', 'text')
    .addColumn('consumer_geo_attest_id', 'text')
    .addColumn('detected_country_code', 'text')
    .addColumn('country_mismatch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumer_ip_hash', 'text')
    .addColumn('integration_context', 'text')
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('contract_date', 'text', (c) => c.notNull())
    .addColumn('revealed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One fulfilment per reference: a concurrent duplicate waits on this index, then replays.
  await db.schema
    .createIndex('orders_reference')
    .on('orders')
    .columns(['environment', 'reference_owner', 'order_reference'])
    .unique()
    .execute();
  await db.schema
    .createIndex('orders_seller_created')
    .on('orders')
    .columns(['seller_company_id', 'environment', 'created_at', 'id'])
    .execute();
  // Only accepted pre-orders (promised capacity) enter this index: plain orders never touch it.
  await db.schema
    .createIndex('orders_open_preorders')
    .on('orders')
    .column('allocation_id')
    .where(sql.ref('delivery'), '=', sql.lit('preorder'))
    .execute();

  await db.schema
    .createTable('checkout_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('allocation_id', 'text', (c) => c.notNull().references('allocations.id'))
    .addColumn('sku_id', 'text', (c) => c.notNull())
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('initial_unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('promo', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('checkout_holds_allocation_status')
    .on('checkout_holds')
    .columns(['allocation_id', 'status', 'expires_at'])
    .execute();

  await db.schema
    .createTable('geo_attestation_uses')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('attest_id', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('geo_attestation_uses_pk', ['company_id', 'environment', 'attest_id'])
    .execute();

  await db.schema
    .createTable('redemptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull())
    .addColumn('platform_code', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('expiring_notified_at', 'bigint')
    .addColumn('expired_notified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('redemptions_expires').on('redemptions').columns(['expires_at']).execute();

  await db.schema
    .createTable('sale_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('entry_type', 'text', (c) => c.notNull())
    .addColumn('reverses_transaction_id', 'text')
    .addColumn('publisher_company_id', 'text', (c) => c.notNull())
    .addColumn('sku_id', 'text', (c) => c.notNull())
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('unit_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('sale_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('initial_sale_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('wholesale_cents', 'bigint')
    .addColumn('wholesale_currency_code', 'text')
    .addColumn('promo', 'text')
    .addColumn('tax_metadata', 'text', (c) => c.notNull())
    .addColumn('customer_region_code', 'text', (c) => c.notNull())
    .addColumn('detected_country_code', 'text')
    .addColumn('country_mismatch', 'integer', (c) => c.notNull())
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('consumer_ip_hash', 'text')
    .addColumn('settlement', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sale_lines_seller_created')
    .on('sale_lines')
    .columns(['seller_company_id', 'environment', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('activity_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sign', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('counterparty_company_id', 'text', (c) => c.notNull())
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('promo_id', 'text')
    .addColumn('buyer_country', 'text', (c) => c.notNull())
    .addColumn('economics', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_entries_seller_created')
    .on('activity_entries')
    .columns(['seller_company_id', 'environment', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'activity_entries',
    'sale_lines',
    'redemptions',
    'geo_attestation_uses',
    'checkout_holds',
    'orders',
  ])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('idempotency_records').dropColumn('response_sealed').execute();
}
