import type { Kysely } from 'kysely';
import { binaryType } from '../dialect.js';

/**
 * Finance and account reads: deals that need acceptance and the sellers' responses, frozen
 * monthly invoices, asynchronous reports (activity CSV), API calls per route class and day, and
 * the legacy marker of sale lines recorded before buyer-IP hashing.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('promotions')
    .addColumn('requires_acceptance', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sale_lines')
    .addColumn('consumer_ip_redacted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('promotions_seller')
    .on('promotions')
    .columns(['environment', 'seller_company_id', 'ends_at'])
    .execute();

  await db.schema
    .createTable('promotion_responses')
    .addColumn('promotion_id', 'text', (c) => c.notNull().references('promotions.id'))
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('responded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('promotion_responses_pk', ['promotion_id', 'seller_company_id'])
    .execute();

  await db.schema
    .createTable('finance_invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('period_end', 'bigint', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('finance_invoices_period')
    .on('finance_invoices')
    .columns(['seller_company_id', 'environment', 'period'])
    .unique()
    .execute();

  await db.schema
    .createTable('finance_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('report_type', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('artifact', binaryType(db))
    .addColumn('checksum', 'text')
    .addColumn('bytes', 'bigint')
    .addColumn('row_count', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('finance_reports_seller')
    .on('finance_reports')
    .columns(['seller_company_id', 'environment'])
    .execute();

  await db.schema
    .createTable('api_usage_daily')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('route_class', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_usage_daily_pk', ['company_id', 'environment', 'day', 'route_class'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['api_usage_daily', 'finance_reports', 'finance_invoices', 'promotion_responses'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('promotions_seller').execute();
  await db.schema.alterTable('sale_lines').dropColumn('consumer_ip_redacted').execute();
  await db.schema.alterTable('promotions').dropColumn('requires_acceptance').execute();
}
