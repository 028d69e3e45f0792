import { CompiledQuery, type Insertable, type Selectable, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import type { KeyPoolsTable } from './inventory.table.js';

export type PoolRow = Selectable<KeyPoolsTable>;

export async function insertPool(ex: Executor, row: Insertable<KeyPoolsTable>): Promise<void> {
  await ex.insertInto('key_pools').values(row).execute();
}

export function findPool(ex: Executor, id: string): Promise<PoolRow | undefined> {
  return ex.selectFrom('key_pools').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findSharedPool(
  ex: Executor,
  skuId: string,
  environment: string,
): Promise<PoolRow | undefined> {
  return ex
    .selectFrom('key_pools')
    .selectAll()
    .where('sku_id', '=', skuId)
    .where('kind', '=', 'shared')
    .where('environment', '=', environment)
    .executeTakeFirst();
}

export function findDedicatedPool(ex: Executor, allocationId: string): Promise<PoolRow | undefined> {
  return ex.selectFrom('key_pools').selectAll().where('allocation_id', '=', allocationId).executeTakeFirst();
}

/**
 * An allocation's dedicated pool and its SKU's shared pool, in one statement through the SKU
 * index (a dedicated pool carries its allocation's SKU).
 */
const poolsOfAllocation = compiledOnce(['skuId', 'environment', 'allocationId'], (db, v) =>
  db
    .selectFrom('key_pools')
    .selectAll()
    .where('sku_id', '=', v.skuId)
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'shared'), eb('environment', '=', v.environment)]),
        eb('allocation_id', '=', v.allocationId),
      ]),
    ),
);

/** The SKU's shared pool in the environment and, given an allocation, its dedicated pool. */
const poolsOfSkuQuery = compiledOnce(['skuId'], (db, v) =>
  db.selectFrom('key_pools').selectAll().where('sku_id', '=', v.skuId),
);

export async function poolsOfSku(ex: Executor, skuId: string): Promise<PoolRow[]> {
  return (await poolsOfSkuQuery(ex, { skuId })).rows;
}

export async function findPoolsOfAllocation(
  ex: Executor,
  skuId: string,
  environment: string,
  allocationId: string | null,
): Promise<PoolRow[]> {
  if (allocationId) return (await poolsOfAllocation(ex, { skuId, environment, allocationId })).rows;
  return ex
    .selectFrom('key_pools')
    .selectAll()
    .where('sku_id', '=', skuId)
    .where((eb) => {
      const shared = eb.and([eb('kind', '=', 'shared'), eb('environment', '=', environment)]);
      return allocationId ? eb.or([shared, eb('allocation_id', '=', allocationId)]) : shared;
    })
    .execute();
}

/** What varies per imported key; the pool, SKU and stamp are the import's. */
export interface SealedKeyRow {
  id: string;
  ciphertext: string;
  fingerprint: string;
}

/** A full statement and a few last-statement sizes; a file's last statement has any size. */
const importStatements = new Map<string, string>();
const IMPORT_STATEMENTS_KEPT = 16;

/**
 * The INSERT of `rows` available keys as SQL text for the engine, written once per engine and
 * row count: a bulk import sends only values, never building a query tree per row. At 1,000
 * rows it stays under both engines' parameter limits (six values a row at most).
 */
function importStatement(postgres: boolean, rows: number): string {
  const key = `${postgres}:${rows}`;
  let text = importStatements.get(key);
  if (!text) {
    let n = 1;
    const param = () => (postgres ? `$${n++}` : '?');
    const stamp = param();
    const tuples = Array.from(
      { length: rows },
      () => `(${param()}, ${param()}, ${param()}, ${param()}, ${param()}, 'available', ${stamp})`,
    );
    text =
      'insert into game_keys (id, pool_id, sku_id, ciphertext, fingerprint, state, created_at) values ' +
      `${tuples.join(', ')} on conflict (fingerprint) do nothing`;
    if (importStatements.size >= IMPORT_STATEMENTS_KEPT) importStatements.clear();
    importStatements.set(key, text);
  }
  return text;
}

/** Inserts available keys into a pool; keys whose fingerprint is already stored are skipped. Returns how many were stored. */
export async function insertAvailableKeys(
  ex: Executor,
  pool: { id: string; sku_id: string },
  createdAt: number,
  rows: readonly SealedKeyRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const postgres = isPostgres(ex);
  // SQLite binds `?` in order, so the shared stamp is repeated per row; PostgreSQL numbers it once.
  const values: unknown[] = postgres ? [createdAt] : [];
  for (const row of rows) {
    values.push(row.id, pool.id, pool.sku_id, row.ciphertext, row.fingerprint);
    if (!postgres) values.push(createdAt);
  }
  const result = await ex.executeQuery(CompiledQuery.raw(importStatement(postgres, rows.length), values));
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Available keys per pool, from the stock kept by the database beside the keys (pool_stock,
 * migration 0024): a read of a few rows whatever the pool's size. Pools without a key ever
 * imported have no row.
 */
export function availableInPools(ex: Executor, poolIds: readonly string[]) {
  return ex
    .selectFrom('pool_stock')
    .select(['pool_id', sql<number>`cast(sum(available) as bigint)`.as('n')])
    .where('pool_id', 'in', poolIds)
    .groupBy('pool_id')
    .execute();
}

export async function countAvailable(ex: Executor, poolId: string): Promise<number> {
  const [row] = await availableInPools(ex, [poolId]);
  return Number(row?.n ?? 0);
}
