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
