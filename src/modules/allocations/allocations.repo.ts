import { type Insertable, type RawBuilder, type Selectable, sql, type Updateable } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
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

/**
 * The grant pull: the rule "an active grant with the headroom for `count`" as the update that
 * moves its counter, written once. The fast paths below run it alone; checkout's PostgreSQL
 * statements (fast-commit.pg.ts) compose it as a CTE. `also` adds the caller's condition (the
 * `promise_version` the quote read, hot-drop mode, the keys claimed). Dialect-neutral: the
 * values' types come from the columns they meet.
 */
export const grantPull = (v: { id: unknown; count: unknown; now: unknown }, also: RawBuilder<unknown>) =>
  sql<AllocationRow>`update allocations
    set quantity_pulled = quantity_pulled + ${v.count}, updated_at = ${v.now}
    where id = ${v.id} and status = 'active' and quantity_limit - quantity_pulled >= ${v.count}
      and ${also}
    returning *`;

const pullOnce = compiledOnce(['id', 'count', 'promiseVersion', 'now'], (_db, v) =>
  grantPull(v, sql`promise_version = ${v.promiseVersion}`),
);

const pullReservedOnce = compiledOnce(['id', 'count', 'now'], (_db, v) => grantPull(v, sql`hot_drop = 1`));

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
