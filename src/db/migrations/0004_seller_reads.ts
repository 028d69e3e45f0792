import type { Kysely } from 'kysely';

/** Publisher profile fields shown to sellers, SKU region locks, and allocation increase requests. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('companies').addColumn('website', 'text').execute();
  await db.schema.alterTable('companies').addColumn('description', 'text').execute();
  await db.schema.alterTable('companies').addColumn('logo_url', 'text').execute();
  await db.schema.alterTable('skus').addColumn('region_locks', 'text').execute();

  await db.schema
    .createTable('allocation_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('allocation_id', 'text', (c) => c.notNull().references('allocations.id'))
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('requested_quantity', 'bigint', (c) => c.notNull())
    .addColumn('declared_forecast', 'bigint')
    .addColumn('publisher_available_keys', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approved_quantity', 'bigint')
    .addColumn('resolution_reason', 'text')
    .addColumn('resolved_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('allocation_requests_seller')
    .on('allocation_requests')
    .columns(['seller_company_id', 'environment', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('allocation_requests').execute();
  await db.schema.alterTable('skus').dropColumn('region_locks').execute();
  for (const column of ['logo_url', 'description', 'website'])
    await db.schema.alterTable('companies').dropColumn(column).execute();
}
