import type { Kysely } from 'kysely';

/**
 * The shared offset of the test clock (SDAPI_TEST_CLOCK=1), one row read by every process; and
 * no idempotent reply stored readable: replies were sealed only on key-bearing routes, so a
 * stored `POST /keys` or rotation reply held a live token. Sealing needs the master key, which a
 * migration does not hold, so completed unsealed replies are dropped: a repeat of such a request
 * within its 24 h window runs again instead of replaying (in-flight claims are kept).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('test_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('test_clock').values({ id: 1, offset_ms: 0 }).execute();
  await db
    .deleteFrom('idempotency_records')
    .where('response_sealed', '=', 0)
    .where('status_code', 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('test_clock').execute();
}
