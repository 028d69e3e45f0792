import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { cancelLiveHolds } from './holds.repo.js';

/** SPEC 3.1: a publisher pausing or revoking a grant cancels its live checkout holds (same transaction). */
export function cancelHoldsOfAllocation(
  ctx: AppContext,
  trx: Executor,
  allocationId: string,
): Promise<number> {
  return cancelLiveHolds(trx, allocationId, ctx.clock.now());
}

/**
 * Keys promised but not pulled, per allocation: live checkout holds and accepted pre-orders.
 * Availability subtracts them, so that it reports what a new order could really pull.
 */
export async function promisedOn(
  ex: Executor,
  allocationIds: readonly string[],
  now: number,
  exceptHoldId?: string,
): Promise<Map<string, number>> {
  const promised = new Map<string, number>();
  if (allocationIds.length === 0) return promised;
  const [holds, preorders] = await Promise.all([
    ex
      .selectFrom('checkout_holds')
      .select(['allocation_id', (eb) => eb.fn.sum<number>('quantity').as('n')])
      .where('allocation_id', 'in', allocationIds)
      .where('status', '=', 'active')
      .where('expires_at', '>', now)
      .$if(exceptHoldId !== undefined, (q) => q.where('id', '!=', exceptHoldId!))
      .groupBy('allocation_id')
      .execute(),
    ex
      .selectFrom('orders')
      .select(['allocation_id', (eb) => eb.fn.sum<number>('quantity').as('n')])
      .where('allocation_id', 'in', allocationIds)
      .where('delivery', '=', 'preorder')
      .groupBy('allocation_id')
      .execute(),
  ]);
  for (const row of [...holds, ...preorders]) {
    promised.set(row.allocation_id, (promised.get(row.allocation_id) ?? 0) + Number(row.n));
  }
  return promised;
}

/** What is promised on one allocation (leaving out the hold an order is consuming). */
export async function promisedOnAllocation(
  ex: Executor,
  allocationId: string,
  now: number,
  exceptHoldId?: string,
) {
  return (await promisedOn(ex, [allocationId], now, exceptHoldId)).get(allocationId) ?? 0;
}
