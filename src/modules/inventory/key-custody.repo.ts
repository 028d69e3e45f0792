import type { Executor } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';

/**
 * The keys named, locked until the transaction ends, in id order: two adjustments that share
 * keys queue on the first shared key instead of deadlocking (on SQLite the single writer
 * serialises anyway).
 */
export function lockKeys(ex: Executor, ids: readonly string[]) {
  return lockRows(
    ex,
    ex
      .selectFrom('game_keys')
      .select(['id', 'pool_id', 'sku_id', 'state', 'order_id'])
      .where('id', 'in', ids)
      .orderBy('id'),
  ).execute();
}

/** Sold keys leave circulation for good (they are never claimed: claims read available keys only). */
export async function quarantine(ex: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await ex.updateTable('game_keys').set({ state: 'quarantined' }).where('id', 'in', ids).execute();
}

/** Sold keys go back to their pool, claimable by the next order. */
export async function restock(ex: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await ex
    .updateTable('game_keys')
    .set({ state: 'available', order_id: null, sold_at: null })
    .where('id', 'in', ids)
    .execute();
}

/** Quarantined keys of a chargeback the seller won are sold (to their order) again. */
export async function unquarantine(ex: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await ex
    .updateTable('game_keys')
    .set({ state: 'sold' })
    .where('id', 'in', ids)
    .where('state', '=', 'quarantined')
    .execute();
}
