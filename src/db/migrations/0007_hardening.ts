import type { Kysely } from 'kysely';

/** The shared offset of the test clock (SDAPI_TEST_CLOCK=1), one row read by every process. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('test_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('test_clock').values({ id: 1, offset_ms: 0 }).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('test_clock').execute();
}
