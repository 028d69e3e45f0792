import type { AppContext } from '../../../context.js';
import { fail } from '../../../http/errors.js';
import { isoOf } from '../../../lib/clock.js';
import { emit } from '../../events/index.js';
import type { SellerActor } from '../line/quote.js';
import { findByReference } from '../orders/orders.service.js';
import { endPreorder } from './preorders.repo.js';

const REASONS = {
  deferred: {
    reason: 'already_converted',
    message: 'was converted at release: its keys are claimed. Return them with POST /keys/return.',
  },
  cancelled: { reason: 'already_cancelled', message: 'was already cancelled.' },
  failed: { reason: 'already_failed', message: 'failed (order.failed): it can no longer be converted.' },
} as const;

function notCancellable(order: { id: string; order_reference: string; delivery: string }) {
  const known = REASONS[order.delivery as keyof typeof REASONS];
  return fail(
    'ORDER_NOT_CANCELLABLE',
    `Order ${order.order_reference} ${known?.message ?? 'is not a pre-order: its keys were delivered.'}`,
    {
      orderReference: order.order_reference,
      orderId: order.id,
      reason: known?.reason ?? 'not_a_preorder',
      ...(order.delivery === 'cancelled' || order.delivery === 'failed'
        ? {}
        : { recommendedAction: 'return_keys' }),
    },
  );
}

/**
 * POST /orders/cancel {orderReference}: cancels an accepted pre-order that has not been
 * converted. The order stays (its reference is spent) as `delivery: cancelled`; the promise it
 * held ends with it, so the capacity is the allocation's again, and `order.returned` goes to
 * the seller. One conditional update decides a race with the conversion: whichever commits
 * first wins, and the loser sees the order as the winner left it. Unknown: 404; converted,
 * cancelled or never a pre-order: 409 ORDER_NOT_CANCELLABLE.
 */
export async function cancelPreorder(ctx: AppContext, actor: SellerActor, orderReference: string) {
  const order = await findByReference(ctx, actor, orderReference);
  if (!order) throw fail('NOT_FOUND', `No order with orderReference ${orderReference}.`, { orderReference });
  if (order.delivery !== 'preorder') throw notCancellable(order);
  const now = ctx.clock.now();
  const cancelled = await ctx.db.transaction().execute(async (trx) => {
    if (!(await endPreorder(trx, order.id, 'cancelled', now))) return false;
    await emit(
      ctx,
      trx,
      [{ companyId: order.seller_company_id, environment: order.environment }],
      'order.returned',
      {
        orderReference: order.order_reference,
        quantity: order.quantity,
      },
    );
    return true;
  });
  if (!cancelled) {
    const current = await findByReference(ctx, actor, orderReference);
    throw notCancellable(current ?? order);
  }
  return {
    type: 'preorder_cancelled' as const,
    orderId: order.id,
    orderReadableId: order.readable_id,
    orderReference: order.order_reference,
    skuCode: order.sku_code,
    quantity: order.quantity,
    cancelledAt: isoOf(now),
  };
}
