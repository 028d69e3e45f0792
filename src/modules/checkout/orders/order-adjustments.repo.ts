import type { Executor } from '../../../db/database.js';
import { lockRows } from '../../../db/dialect.js';

/** Orders by id, locked until the transaction ends, in id order. */
export function lockOrders(ex: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return lockRows(ex, ex.selectFrom('orders').selectAll().where('id', 'in', ids).orderBy('id')).execute();
}

/**
 * Moves a fully refunded order out of its reference namespace: the unique index on
 * (environment, reference_owner, order_reference) no longer sees it, so the reference may
 * pull again, while the row keeps its `order_reference` for GET /orders and the ledger.
 */
export async function releaseReference(
  ex: Executor,
  order: { id: string; reference_owner: string },
  tag: string,
  now: number,
): Promise<void> {
  await ex
    .updateTable('orders')
    .set({ reference_owner: `${order.reference_owner}${RELEASED_MARK}${tag}`, updated_at: now })
    .where('id', '=', order.id)
    .execute();
}

/** What a released reference owner carries after the owner id (ids never contain it). */
export const RELEASED_MARK = '~released~';
