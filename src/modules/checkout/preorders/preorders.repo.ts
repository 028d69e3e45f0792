import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { lockRows } from '../../../db/dialect.js';
import type { OrderRow } from '../orders/orders.repo.js';

/**
 * `delivery = 'preorder'` as a literal in the SQL: PostgreSQL plans every statement
 * generically (`plan_cache_mode`), and only a literal lets that plan use the partial index
 * `orders_open_preorders` (accepted pre-orders only) instead of scanning every order.
 */
export const ACCEPTED_PREORDER = sql.lit('preorder' as const);

/**
 * The pre-orders that may convert: accepted (`delivery = 'preorder'`) on a SKU whose release is
 * `available` and whose product is `released` (the pre-order has become its release).
 */
function releasedPreorders(ex: Executor) {
  return ex
    .selectFrom('orders')
    .innerJoin('skus', 'skus.id', 'orders.sku_id')
    .innerJoin('releases', 'releases.id', 'skus.release_id')
    .innerJoin('products', 'products.id', 'orders.product_id')
    .where('orders.delivery', '=', ACCEPTED_PREORDER)
    .where('releases.state', '=', 'available')
    .where('products.launch_phase', '=', 'released');
}

/** SKUs with pre-orders waiting for conversion, the one with the oldest waiting order first. */
export async function skusWithReleasedPreorders(ex: Executor): Promise<string[]> {
  const rows = await releasedPreorders(ex)
    .select('orders.sku_id')
    .select((eb) => eb.fn.min('orders.created_at').as('oldest'))
    .groupBy('orders.sku_id')
    .orderBy('oldest')
    .execute();
  return rows.map((r) => r.sku_id);
}

export interface QueuedPreorder {
  id: string;
  allocation_id: string;
}

/** One SKU's waiting pre-orders, oldest first, leaving out the allocations named. */
export function preorderQueue(
  ex: Executor,
  skuId: string,
  skipAllocations: readonly string[],
  limit: number,
): Promise<QueuedPreorder[]> {
  return releasedPreorders(ex)
    .select(['orders.id', 'orders.allocation_id'])
    .where('orders.sku_id', '=', skuId)
    .$if(skipAllocations.length > 0, (q) => q.where('orders.allocation_id', 'not in', skipAllocations))
    .orderBy('orders.created_at')
    .orderBy('orders.id')
    .limit(limit)
    .execute();
}

/** The order, locked, if it is still an accepted pre-order (not converted, not cancelled). */
export function lockWaitingPreorder(trx: Executor, id: string): Promise<OrderRow | undefined> {
  return lockRows(
    trx,
    trx.selectFrom('orders').selectAll().where('id', '=', id).where('delivery', '=', 'preorder'),
  ).executeTakeFirst();
}

/** The pre-order became its release: keys claimed, revealed on POST /orders/{id}/fulfill. */
export async function markConverted(trx: Executor, order: OrderRow, now: number): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ delivery: 'deferred', pulled: order.quantity, updated_at: now })
    .where('id', '=', order.id)
    .execute();
}

/**
 * Ends an accepted pre-order as `cancelled` (by the seller) or `failed` (order.failed); false
 * when it is no longer one (converted, cancelled or failed meanwhile).
 */
export async function endPreorder(
  trx: Executor,
  id: string,
  delivery: 'cancelled' | 'failed',
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ delivery, updated_at: now })
    .where('id', '=', id)
    .where('delivery', '=', 'preorder')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sellers (and environments) holding accepted pre-orders of a release's SKUs. */
export function preorderHoldersOfRelease(ex: Executor, releaseId: string) {
  return ex
    .selectFrom('orders')
    .innerJoin('skus', 'skus.id', 'orders.sku_id')
    .select(['orders.seller_company_id', 'orders.environment'])
    .distinct()
    .where('skus.release_id', '=', releaseId)
    .where('orders.delivery', '=', ACCEPTED_PREORDER)
    .execute();
}

/** Why an accepted pre-order can no longer convert (`order.failed` reasonCode). */
export type PreorderFailure = 'ALLOCATION_REVOKED' | 'PRODUCT_DELISTED' | 'PREORDER_CANCELLED_BY_PUBLISHER';

/**
 * Accepted pre-orders that can no longer convert: the grant they were accepted on is revoked,
 * or the product (its release, its SKU) was delisted before release.
 */
export async function unconvertiblePreorders(ex: Executor, limit: number) {
  const rows = await ex
    .selectFrom('orders')
    .innerJoin('allocations', 'allocations.id', 'orders.allocation_id')
    .innerJoin('skus', 'skus.id', 'orders.sku_id')
    .innerJoin('releases', 'releases.id', 'skus.release_id')
    .innerJoin('products', 'products.id', 'orders.product_id')
    .select(['orders.id', 'allocations.status'])
    .where('orders.delivery', '=', ACCEPTED_PREORDER)
    .where((eb) =>
      eb.or([
        eb('allocations.status', '=', 'revoked'),
        eb('products.is_archived', '=', 1),
        eb('releases.delisted', '=', 1),
        eb('skus.delisted', '=', 1),
      ]),
    )
    .orderBy('orders.created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    reason: (r.status === 'revoked' ? 'ALLOCATION_REVOKED' : 'PRODUCT_DELISTED') as PreorderFailure,
  }));
}
