import type { AppContext } from '../../../context.js';
import { emit } from '../../events/index.js';
import * as repo from './preorders.repo.js';

const BATCH = 100;

/**
 * Fails one accepted pre-order that can no longer convert, in its own transaction: the order is
 * locked, then moved from `preorder` to `failed` by one conditional update (a conversion, a
 * cancel or another process failing it first leaves nothing to do), and `order.failed` goes to
 * the seller with the reason. The capacity the pre-order promised is the allocation's again at
 * once (promised capacity counts accepted pre-orders only). No finance row exists to reverse: a
 * pre-order records its sale when it converts. True when this call failed it.
 */
export async function failPreorder(
  ctx: AppContext,
  orderId: string,
  reasonCode: repo.PreorderFailure,
): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const order = await repo.lockWaitingPreorder(trx, orderId);
    if (!order) return false;
    if (!(await repo.endPreorder(trx, order.id, 'failed', ctx.clock.now()))) return false;
    await emit(
      ctx,
      trx,
      [{ companyId: order.seller_company_id, environment: order.environment }],
      'order.failed',
      { orderReference: order.order_reference, skuCode: order.sku_code, reasonCode },
    );
    return true;
  });
}

/**
 * The failure round (job `preorder-failures`, every second): every accepted pre-order whose
 * grant was revoked or whose product, release or SKU was delisted before release fails. Safe in
 * every process at once: each order fails once (`failPreorder`). Returns how many this round failed.
 */
export async function failUnconvertiblePreorders(ctx: AppContext): Promise<number> {
  let failed = 0;
  for (;;) {
    const due = await repo.unconvertiblePreorders(ctx.db, BATCH);
    for (const { id, reason } of due) if (await failPreorder(ctx, id, reason)) failed++;
    if (due.length < BATCH) return failed;
  }
}
