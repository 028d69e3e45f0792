import { vi } from 'vitest';
import type { TestApp } from './harness.js';

/** A grant's pulled counter, as stored. */
export async function pulledOn(t: TestApp, allocationId: string): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('allocations')
    .select('quantity_pulled')
    .where('id', '=', allocationId)
    .executeTakeFirstOrThrow();
  return Number(row.quantity_pulled);
}

/** A hot-drop grant's carved total (units promised to reservations), as stored; 0 before its first. */
export async function carvedOf(t: TestApp, allocationId: string): Promise<number> {
  const pool = await t.ctx.db
    .selectFrom('reservation_pools')
    .select('carved')
    .where('allocation_id', '=', allocationId)
    .executeTakeFirst();
  return Number(pool?.carved ?? 0);
}

/** How many keys of a pool are in `state`, as stored. */
export async function keysInPool(t: TestApp, poolId: string, state: 'available' | 'sold'): Promise<number> {
  const rows = await t.ctx.db
    .selectFrom('game_keys')
    .select('id')
    .where('pool_id', '=', poolId)
    .where('state', '=', state)
    .execute();
  return rows.length;
}

/**
 * The SQL of every query the app's pool runs from now on, outside transactions (restore with
 * `vi.restoreAllMocks()`).
 */
export function recordStatements(app: TestApp): () => string[] {
  const spy = vi.spyOn(app.ctx.db.getExecutor(), 'executeQuery');
  // The test clock's periodic offset read (lib/clock.ts `sync`) lands in any window once its
  // cache expires: it is the clock's work, not the request's, so it is left out.
  return () =>
    spy.mock.calls
      .map(([query]) => query.sql)
      .filter((sql) => !sql.startsWith('select "offset_ms" from "test_clock"'));
}
