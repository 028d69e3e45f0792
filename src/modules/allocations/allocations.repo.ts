import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database, Executor } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import type { AllocationsTable, SharesTable } from './allocations.table.js';

export type AllocationRow = Selectable<AllocationsTable>;

export function findShare(ex: Executor, sellerId: string, skuId: string) {
  return ex
    .selectFrom('shares')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('sku_id', '=', skuId)
    .executeTakeFirst();
}

export async function insertShare(ex: Executor, row: Insertable<SharesTable>): Promise<void> {
  await ex.insertInto('shares').values(row).execute();
}

export async function setShareActive(ex: Executor, id: string, active: boolean, at: number): Promise<void> {
  await ex
    .updateTable('shares')
    .set({ active: active ? 1 : 0, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function insertAllocation(ex: Executor, row: Insertable<AllocationsTable>): Promise<void> {
  await ex.insertInto('allocations').values(row).execute();
}

/** With `lock`, the row stays locked until the transaction ends (read-modify-write of counters). */
export function findAllocation(ex: Executor, id: string, lock = false): Promise<AllocationRow | undefined> {
  const query = ex.selectFrom('allocations').selectAll().where('id', '=', id);
  return (lock ? lockRows(ex, query) : query).executeTakeFirst();
}

export async function updateAllocation(
  ex: Executor,
  id: string,
  patch: Updateable<AllocationsTable>,
): Promise<void> {
  await ex.updateTable('allocations').set(patch).where('id', '=', id).execute();
}

/** The counter of an active grant moved by `count`, where its headroom covers it. */
const pullWithinHeadroom = (db: Kysely<Database>, v: Record<'id' | 'count' | 'now', string>) =>
  db
    .updateTable('allocations')
    .set((eb) => ({
      quantity_pulled: eb('quantity_pulled', '+', v.count as never),
      updated_at: v.now as never,
    }))
    .where('id', '=', v.id)
    .where('status', '=', 'active')
    .where((eb) => eb(eb('quantity_limit', '-', eb.ref('quantity_pulled')), '>=', v.count as never));

const pullOnce = compiledOnce(['id', 'count', 'promiseVersion', 'now'], (db, v) =>
  pullWithinHeadroom(db, v)
    .where('promise_version', '=', v.promiseVersion as never)
    .returningAll(),
);

const pullReservedOnce = compiledOnce(['id', 'count', 'now'], (db, v) =>
  pullWithinHeadroom(db, v).where('hot_drop', '=', 1).returningAll(),
);

/** See `pullReserved` in allocations.service.ts. */
export async function pullReserved(
  ex: Executor,
  id: string,
  count: number,
  now: number,
): Promise<AllocationRow | undefined> {
  return (await pullReservedOnce(ex, { id, count, now })).rows[0];
}

/** See `pullUnlessPromised` in allocations.service.ts. */
export async function pullUnlessPromised(
  ex: Executor,
  id: string,
  count: number,
  promiseVersion: number,
  now: number,
): Promise<AllocationRow | undefined> {
  return (await pullOnce(ex, { id, count, promiseVersion, now })).rows[0];
}
