import type { Executor } from '../../../db/database.js';
import { lockRows } from '../../../db/dialect.js';

/** A redemption record found by its link, with what the hosted page shows about it. */
export function recordByTokenHash(ex: Executor, tokenHash: string) {
  return ex
    .selectFrom('redemptions as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .innerJoin('products as p', 'p.id', 'o.product_id')
    .innerJoin('skus as s', 's.id', 'o.sku_id')
    .select([
      'r.id',
      'r.order_id',
      'r.expires_at',
      'r.revoked_at',
      'r.revealed_at',
      'r.platform_code',
      'p.name as product_name',
      's.activation_type',
      's.activation_countries',
      'o.quantity',
    ])
    .where('r.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the first reveal; false when an earlier request already did. */
export async function markFirstReveal(ex: Executor, id: string, now: number): Promise<boolean> {
  const result = await ex
    .updateTable('redemptions')
    .set({ revealed_at: now })
    .where('id', '=', id)
    .where('revealed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The order's record, locked until the transaction ends (a revoke and a regenerate queue). */
export function lockRecordOfOrder(ex: Executor, orderId: string) {
  return lockRows(
    ex,
    ex.selectFrom('redemptions').selectAll().where('order_id', '=', orderId),
  ).executeTakeFirst();
}

export async function updateLink(
  ex: Executor,
  id: string,
  change: { token_hash?: string; token_sealed?: string; revoked_at: number | null },
): Promise<void> {
  await ex.updateTable('redemptions').set(change).where('id', '=', id).execute();
}

/** Records whose `column` notice is not yet sent and that expire by `due`, soonest first. */
export const recordsDueForNotice = (
  ex: Executor,
  column: 'expiring_notified_at' | 'expired_notified_at',
  due: number,
  limit: number,
) =>
  ex
    .selectFrom('redemptions')
    .selectAll()
    .where(column, 'is', null)
    .where('expires_at', '<=', due)
    .orderBy('expires_at')
    .limit(limit)
    .execute();

/**
 * Claims a record's notice: sets the notice columns only while `column` is still unset, so of
 * two processes sweeping at once one sends it. True when this call claimed it.
 */
export async function claimNotice(
  ex: Executor,
  id: string,
  column: 'expiring_notified_at' | 'expired_notified_at',
  set: { expiring_notified_at: number; expired_notified_at?: number },
): Promise<boolean> {
  const claimed = await ex
    .updateTable('redemptions')
    .set(set)
    .where('id', '=', id)
    .where(column, 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}
