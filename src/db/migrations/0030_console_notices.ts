import type { Kysely } from 'kysely';

/**
 * The console's in-app notices (docs/console.md, "Notices"): one row per notice for a company
 * and environment, read or unread for the whole company, and the feed cursor of the job that
 * turns published events into notices exactly once. The request log also records each request's
 * rate-limit class and bucket, so the Usage page can say how close a minute came to its limit.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .addColumn('read_by', 'text')
    .execute();
  await db.schema
    .createIndex('console_notices_company')
    .on('console_notices')
    .columns(['company_id', 'environment', 'created_at'])
    .execute();
  await db.schema
    .createTable('console_notice_cursor')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('published_seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('request_log').addColumn('rate_class', 'text').execute();
  await db.schema.alterTable('request_log').addColumn('rate_bucket', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('request_log').dropColumn('rate_bucket').execute();
  await db.schema.alterTable('request_log').dropColumn('rate_class').execute();
  await db.schema.dropTable('console_notice_cursor').execute();
  await db.schema.dropTable('console_notices').execute();
}
