import type { Kysely } from 'kysely';

/** Partners, agreements and the publisher catalog: products, editions, releases, SKUs, prices. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('partner_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('publisher_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('invoicing_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('self_billing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('catalog_share_mode', 'text', (c) => c.notNull())
    .addColumn('shares_suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('partner_connections_pair', [
      'seller_company_id',
      'publisher_company_id',
      'environment',
    ])
    .execute();

  await db.schema
    .createTable('agreements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('partner_connections.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bma_type', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency_mode', 'text', (c) => c.notNull())
    .addColumn('currency_detail', 'text', (c) => c.notNull())
    .addColumn('permitted_channels', 'text', (c) => c.notNull())
    .addColumn('marketplace_slugs', 'text', (c) => c.notNull())
    .addColumn('consumer_geo_policy', 'text', (c) => c.notNull())
    .addColumn('region_locks', 'text', (c) => c.notNull())
    .addColumn('superseded_by', 'text')
    .addColumn('activated_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agreements_connection').on('agreements').column('connection_id').execute();

  await db.schema
    .createTable('agreement_amendments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agreement_id', 'text', (c) => c.notNull().references('agreements.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('publisher_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('short_description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('launch_phase', 'text', (c) => c.notNull())
    .addColumn('trading_state', 'text', (c) => c.notNull())
    .addColumn('is_archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archive_at', 'bigint')
    .addColumn('preorder_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preorder_start', 'bigint')
    .addColumn('preorder_end', 'bigint')
    .addColumn('cover', 'text')
    .addColumn('platforms', 'text', (c) => c.notNull())
    .addColumn('regions', 'text', (c) => c.notNull())
    .addColumn('churn_period_hours', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('products_slug', ['environment', 'slug'])
    .execute();
  await db.schema
    .createIndex('products_publisher')
    .on('products')
    .columns(['publisher_company_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('products_listing')
    .on('products')
    .columns(['environment', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('product_relations')
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target_product_id', 'text', (c) => c.notNull().references('products.id'))
    .addPrimaryKeyConstraint('product_relations_pk', ['product_id', 'type', 'target_product_id'])
    .execute();

  await db.schema
    .createTable('editions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('releases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('edition_id', 'text', (c) => c.references('editions.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('release_date', 'bigint')
    .addColumn('excluded_countries', 'text', (c) => c.notNull())
    .addColumn('delisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('releases_product').on('releases').column('product_id').execute();

  await db.schema
    .createTable('skus')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('activation_type', 'text', (c) => c.notNull())
    .addColumn('activation_countries', 'text')
    .addColumn('delisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('skus_product').on('skus').column('product_id').execute();
  await db.schema.createIndex('skus_release').on('skus').column('release_id').execute();

  // Price history: the effective price is the newest row with effective_at <= now; a row with
  // a null price removes the country's price from that instant.
  await db.schema
    .createTable('territory_prices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id'))
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('currency_code', 'text', (c) => c.notNull())
    .addColumn('list_price_cents', 'bigint')
    .addColumn('srp_min_cents', 'bigint')
    .addColumn('srp_max_cents', 'bigint')
    .addColumn('effective_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('territory_prices_lookup')
    .on('territory_prices')
    .columns(['release_id', 'country_code', 'currency_code', 'effective_at'])
    .execute();

  await db.schema
    .createTable('reference_rates')
    .addColumn('currency_code', 'text', (c) => c.primaryKey())
    .addColumn('units_per_usd', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'reference_rates',
    'territory_prices',
    'skus',
    'releases',
    'editions',
    'product_relations',
    'products',
    'agreement_amendments',
    'agreements',
    'partner_connections',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
