import type { Kysely } from 'kysely';
import { binaryType } from '../dialect.js';

/** Asynchronous catalog exports and their gzip NDJSON artifacts. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('artifact', binaryType(db))
    .addColumn('checksum', 'text')
    .addColumn('bytes', 'bigint')
    .addColumn('total_products', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('catalog_exports_seller')
    .on('catalog_exports')
    .columns(['seller_company_id', 'environment'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_exports').execute();
}
