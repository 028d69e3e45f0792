import { sql } from 'kysely';
import type { Executor } from './database.js';

/** pg_try_advisory_xact_lock key: one process keeps the partitions at a time. */
const UPKEEP_LOCK = 1_400_800_4;

/** The names of `table`'s partitions (in the schema of the search path). */
export async function partitionsOf(ex: Executor, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid where i.inhparent = ${table}::regclass`.execute(ex);
  return rows.map((r) => r.name);
}

/** Creates the partition of `table` for [from, to) unless it exists, with `settings` (storage parameters). */
export async function createPartition(
  ex: Executor,
  table: string,
  name: string,
  range: { from: number | string; to: number | string; settings?: string },
) {
  await sql`create table if not exists ${sql.id(name)} partition of ${sql.table(table)}
    for values from (${sql.lit(range.from)}) to (${sql.lit(range.to)})
    ${range.settings ? sql`with (${sql.raw(range.settings)})` : sql``}`.execute(ex);
}

/**
 * Adds, unless there, the foreign key `name` from `columns` of the partition `from` to `key` of
 * the partition `to`, on delete cascade (both new and empty: nothing to check).
 */
export async function addPartitionForeignKey(
  ex: Executor,
  name: string,
  from: { partition: string; columns: readonly string[] },
  to: { partition: string; key: readonly string[] },
) {
  const { rows } = await sql`select 1 from pg_constraint
    where conname = ${name} and conrelid = to_regclass(${from.partition})`.execute(ex);
  if (rows.length > 0) return;
  const ids = (columns: readonly string[]) => sql.join(columns.map((c) => sql.id(c)));
  await sql`alter table ${sql.id(from.partition)} add constraint ${sql.id(name)}
    foreign key (${ids(from.columns)}) references ${sql.id(to.partition)} (${ids(to.key)})
    on delete cascade`.execute(ex);
}

/**
 * Drops `names` in one statement: a day of deliveries is referenced by that day of attempts'
 * foreign key, which PostgreSQL lets go only when the referencing day goes in the same statement.
 */
export async function dropPartitions(ex: Executor, names: readonly string[]) {
  await sql`drop table if exists ${sql.join(names.map((n) => sql.id(n)))}`.execute(ex);
}

/**
 * Creating and dropping a partition lock the parent table against every reader and writer:
 * waiting longer than this behind a long read would queue all of them behind the DDL, so the
 * statement gives up instead and the next round tries again.
 */
export async function limitLockWait(ex: Executor, ms: number) {
  await sql`set local lock_timeout = ${sql.lit(`${ms}ms`)}`.execute(ex);
}

/** True when this transaction holds the upkeep lock; another process keeping them skips the round. */
export async function tryUpkeepLock(ex: Executor): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${UPKEEP_LOCK}) as locked`.execute(ex);
  return rows[0]?.locked === true;
}

/** Locks `tables` against every reader and writer until the transaction ends, in the order given. */
export async function lockTables(ex: Executor, tables: readonly string[]) {
  await sql`lock table ${sql.join(tables.map((n) => sql.table(n)))} in access exclusive mode`.execute(ex);
}
