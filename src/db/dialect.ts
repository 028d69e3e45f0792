import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: works on any schema, typed or not
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The column type of a monotonic sequence key (cursors of changes and events). */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the schema is typed
export const sequenceType = (db: Kysely<any>) => (isPostgres(db) ? sql`bigserial` : sql`integer`);

export const sequenceColumn =
  // biome-ignore lint/suspicious/noExplicitAny: see above
  (db: Kysely<any>) => (c: ColumnDefinitionBuilder) =>
    isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement();

/** The column type of raw bytes: `bytea` on PostgreSQL, `blob` on SQLite (both read back as Buffer). */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the schema is typed
export const binaryType = (db: Kysely<any>) => (isPostgres(db) ? sql`bytea` : sql`blob`);
