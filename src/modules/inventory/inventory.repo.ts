import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { GameKeysTable, KeyPoolsTable } from './inventory.table.js';

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
export function findPoolsOfAllocation(
  ex: Executor,
  skuId: string,
  environment: string,
  allocationId: string | null,
): Promise<PoolRow[]> {
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

/** Inserts a batch; keys whose fingerprint is already stored are skipped. Returns how many were stored. */
export async function insertKeys(ex: Executor, rows: Insertable<GameKeysTable>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await ex
    .insertInto('game_keys')
    .values(rows)
    .onConflict((oc) => oc.column('fingerprint').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

export async function countAvailable(ex: Executor, poolId: string): Promise<number> {
  const row = await ex
    .selectFrom('game_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pool_id', '=', poolId)
    .where('state', '=', 'available')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
