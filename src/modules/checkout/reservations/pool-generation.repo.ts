import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';

/**
 * The pool row's side of the Redis copy of free units (redis-slot-store.ts): its generation,
 * and what a rebuild counts. PostgreSQL only (the Redis store runs on PostgreSQL).
 */

/** The generation the copy in Redis must carry; 0 before the pool's first refill. */
export async function generationOf(ex: Executor, allocationId: string): Promise<number> {
  const row = await ex
    .selectFrom('reservation_pools')
    .select('generation')
    .where('allocation_id', '=', allocationId)
    .executeTakeFirst();
  return Number(row?.generation ?? 0);
}

/**
 * Share lock on the reservations: every reservation write in progress commits first, none
 * starts until the caller commits; then the pool row (created if missing), locked.
 */
export async function lockForRebuild(ex: Executor, allocationId: string) {
  await sql`lock table reservations in share mode`.execute(ex);
  await ex
    .insertInto('reservation_pools')
    .values({ allocation_id: allocationId, carved: 0, uncarved: 0 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await ex
    .selectFrom('reservation_pools')
    .select(['carved', 'uncarved'])
    .where('allocation_id', '=', allocationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { carved: Number(row.carved), uncarved: Number(row.uncarved) };
}

/** Units of the allocation's reservations not yet ended (live, or being committed). */
export async function heldUnits(ex: Executor, allocationId: string): Promise<number> {
  const row = await ex
    .selectFrom('reservations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantity'), sql<number>`0`).as('held'))
    .where('allocation_id', '=', allocationId)
    .where('status', 'in', ['live', 'committing'])
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

/** A new generation for the pool (random: a generation never comes back); the copy in Redis is stale. */
export async function nextGeneration(ex: Executor, allocationId: string): Promise<number> {
  const generation = 1 + Math.floor(Math.random() * 2 ** 48);
  await ex
    .updateTable('reservation_pools')
    .set({ generation })
    .where('allocation_id', '=', allocationId)
    .execute();
  return generation;
}

/** The generations of the allocations' pools, read inside the transaction that ends reservations. */
export async function generationsOf(ex: Executor, allocationIds: string[]): Promise<Map<string, number>> {
  if (allocationIds.length === 0) return new Map();
  const rows = await ex
    .selectFrom('reservation_pools')
    .select(['allocation_id', 'generation'])
    .where('allocation_id', 'in', allocationIds)
    .execute();
  return new Map(rows.map((r) => [r.allocation_id, Number(r.generation)]));
}

/** Redis store: the capacity left uncarved at a refill, kept in the pool row for a rebuild. */
export async function recordUncarved(ex: Executor, allocationId: string, uncarved: number): Promise<void> {
  await ex
    .updateTable('reservation_pools')
    .set({ uncarved })
    .where('allocation_id', '=', allocationId)
    .execute();
}
