import {
  type ColumnDefinitionBuilder,
  type Kysely,
  PostgresAdapter,
  type SelectQueryBuilder,
  sql,
} from 'kysely';

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

/**
 * Locks the selected rows until the transaction ends, for updates that never change their key:
 * `FOR NO KEY UPDATE` on PostgreSQL. Two lockers queue; an insert elsewhere that references
 * the row by foreign key (it takes KEY SHARE) is not blocked, so a transaction may insert an
 * order referencing an allocation and then lock that allocation without deadlocking against
 * another doing the same. On SQLite the single serialized writer gives the same guarantee.
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over any select of any schema
export function lockRows<QB extends SelectQueryBuilder<any, any, any>>(ex: Kysely<any>, query: QB): QB {
  return isPostgres(ex) ? (query.forNoKeyUpdate() as QB) : query;
}

/**
 * For claims: lock the selected rows and skip rows another transaction holds, so concurrent
 * claimers take different keys instead of queueing (`FOR UPDATE SKIP LOCKED` on PostgreSQL;
 * SQLite's single writer never sees a locked row).
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over any select of any schema
export function forUpdateSkipLocked<QB extends SelectQueryBuilder<any, any, any>>(
  // biome-ignore lint/suspicious/noExplicitAny: see above
  ex: Kysely<any>,
  query: QB,
): QB {
  return isPostgres(ex) ? (query.forUpdate().skipLocked() as QB) : query;
}
