import type { Executor } from '../../../db/database.js';
import type { PromisedExcept } from '../../allocations/index.js';
import { ACCEPTED_PREORDER } from '../preorders/preorders.repo.js';

/**
 * Keys promised but not pulled, per allocation: live checkout holds, accepted pre-orders and
 * the units carved for hot-drop reservations (live ones and the free ones ahead), in one
 * statement. Availability subtracts them, so that it reports what a new order could really pull;
 * fulfilment and hold placement bound themselves by them under the grant's lock.
 */
export async function promisedOn(
  ex: Executor,
  allocationIds: readonly string[],
  now: number,
  except: PromisedExcept = {},
): Promise<Map<string, number>> {
  const promised = new Map<string, number>();
  if (allocationIds.length === 0) return promised;
  const rows = await ex
    .selectFrom('checkout_holds')
    .select(['allocation_id', 'quantity'])
    .where('allocation_id', 'in', allocationIds)
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .$if(except.holdId !== undefined, (q) => q.where('id', '!=', except.holdId!))
    .unionAll(
      ex
        .selectFrom('orders')
        .select(['allocation_id', 'quantity'])
        .where('allocation_id', 'in', allocationIds)
        // A literal, not a bound value: the partial index orders_open_preorders (preorders.repo.ts).
        .where('delivery', '=', ACCEPTED_PREORDER)
        .$if(except.orderId !== undefined, (q) => q.where('id', '!=', except.orderId!)),
    )
    .unionAll(
      ex
        .selectFrom('reservation_pools')
        .select(['allocation_id', 'carved as quantity'])
        .where('allocation_id', 'in', allocationIds)
        .where('carved', '>', 0),
    )
    .execute();
  for (const row of rows) {
    promised.set(row.allocation_id, (promised.get(row.allocation_id) ?? 0) + Number(row.quantity));
  }
  return promised;
}

/** What is promised on one allocation. */
export async function promisedOnAllocation(
  ex: Executor,
  allocationId: string,
  now: number,
  except?: PromisedExcept,
) {
  return (await promisedOn(ex, [allocationId], now, except)).get(allocationId) ?? 0;
}
