import type { Kysely } from 'kysely';

/**
 * `replica_write_marks`: per company, the primary's WAL position after its latest write, for
 * read-your-writes on a streaming replica when no Redis is configured (db/replica.ts). A
 * company whose mark the replica has not replayed yet reads from the primary.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('replica_write_marks')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('lsn', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('replica_write_marks').execute();
}
