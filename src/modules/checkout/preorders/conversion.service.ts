import type { AppContext } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import { rollBackWith, transactionOrOutcome } from '../../../db/guarded-writes.js';
import { unlessRunningElsewhere } from '../../../db/sole-holder.js';
import { isApiError } from '../../../http/errors.js';
import { isoOf } from '../../../lib/clock.js';
import { pullEvents, recordPull, remainingOf, requireAllocation } from '../../allocations/index.js';
import { emitEventList } from '../../events/index.js';
import { claimKeysOrShort } from '../../inventory/index.js';
import { recordConversionFinance } from './preorder-finance.js';
import * as repo from './preorders.repo.js';

const BATCH = 100;

/**
 * What one attempt did: `converted`; `gone` (converted or cancelled by someone else);
 * `short` (not enough keys: the SKU's queue waits for keys, oldest first); `grant` (the
 * allocation is not active or no longer has the headroom: that seller's queue waits).
 */
export type ConversionOutcome = 'converted' | 'gone' | 'short' | 'grant';

/**
 * Converts one accepted pre-order in place, all or nothing, in its own transaction: the order
 * row is locked first (a second converter or a cancel waits, then finds it no longer waiting),
 * then exactly `quantity` keys are claimed (SKIP LOCKED), the finance rows written, the order
 * becomes `deferred` (claimed, revealed on POST /orders/{orderId}/fulfill or recover-keys),
 * and last the grant: locked, its pulled counter moved by `quantity` (the promise it held
 * becomes a pull, so the promised sum only shrinks and orders' fast path stays safe). Events:
 * `order.preorder_fulfilled`, then `allocation.updated` and the capacity events.
 */
export async function convertPreorder(
  ctx: AppContext,
  ex: Executor,
  orderId: string,
): Promise<ConversionOutcome> {
  return transactionOrOutcome(ex, async (trx) => {
    const order = await repo.lockWaitingPreorder(trx, orderId);
    if (!order) return 'gone';
    const now = ctx.clock.now();
    const peek = await requireAllocation(trx, order.allocation_id);
    if (peek.status !== 'active' || remainingOf(peek) < order.quantity) return 'grant';
    const claimed = await claimKeysOrShort(ctx, trx, {
      allocationId: order.allocation_id,
      skuId: order.sku_id,
      skuCode: order.sku_code,
      environment: order.environment,
      orderId: order.id,
      quantity: order.quantity,
    });
    if (isApiError(claimed)) return rollBackWith('short' as const);
    await recordConversionFinance(trx, order, now);
    await repo.markConverted(trx, order, now);
    const grant = await requireAllocation(trx, order.allocation_id, true);
    if (grant.status !== 'active' || remainingOf(grant) < order.quantity)
      return rollBackWith('grant' as const);
    const after = await recordPull(trx, grant, order.quantity, now);
    const recipients = [{ companyId: order.seller_company_id, environment: order.environment }];
    await emitEventList(ctx, trx, [
      {
        recipients,
        eventType: 'order.preorder_fulfilled',
        data: {
          orderReference: order.order_reference,
          skuCode: order.sku_code,
          quantity: order.quantity,
          fulfilledAt: isoOf(now),
        },
      },
      ...pullEvents(after, order.sku_code, order.quantity),
    ]);
    return 'converted';
  });
}

/**
 * Walks one SKU's waiting pre-orders oldest first. A pre-order short of keys stops the walk:
 * newer ones never take the keys an older one waits for, and it converts as keys arrive. A
 * grant that is paused, revoked or lowered below the order only holds back that seller's
 * pre-orders of the SKU.
 */
async function walkQueue(ctx: AppContext, ex: Executor, skuId: string): Promise<number> {
  const held: string[] = [];
  let converted = 0;
  for (;;) {
    const queue = await repo.preorderQueue(ex, skuId, held, BATCH);
    for (const entry of queue) {
      if (held.includes(entry.allocation_id)) continue;
      const outcome = await convertPreorder(ctx, ex, entry.id);
      if (outcome === 'converted') converted++;
      if (outcome === 'short') return converted;
      if (outcome === 'grant') held.push(entry.allocation_id);
    }
    if (queue.length < BATCH) return converted;
  }
}

/**
 * One walker per SKU across processes: a process that finds a SKU being walked elsewhere leaves
 * it to that walker (converting nothing of it this round).
 */
const asSoleWalker = (ctx: AppContext, skuId: string, walk: () => Promise<number>) =>
  unlessRunningElsewhere(ctx.db, ctx.config.database, `preorder-conversion:${skuId}`, 0, walk);

/**
 * The conversion round (job `preorder-conversion`, also woken when a release comes out or keys
 * are imported): every SKU whose release is out and that has waiting pre-orders is walked.
 * Returns how many pre-orders were converted.
 */
export async function convertReleasedPreorders(ctx: AppContext): Promise<number> {
  let converted = 0;
  for (const skuId of await repo.skusWithReleasedPreorders(ctx.db)) {
    converted += await asSoleWalker(ctx, skuId, () => walkQueue(ctx, ctx.db, skuId));
  }
  return converted;
}
