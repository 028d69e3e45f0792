import type { AppContext } from '../../context.js';
import { keysReplacedPerOrder, keysTakenBackPerOrder } from './console-orders.repo.js';

/** What happened to an order's keys after the sale, counted per key. */
export interface AfterSale {
  refunded: number;
  chargedBack: number;
  returned: number;
  replaced: number;
}

const none = (): AfterSale => ({ refunded: 0, chargedBack: 0, returned: 0, replaced: 0 });

const FIELD = { refund: 'refunded', chargeback: 'chargedBack', return: 'returned' } as const;

/**
 * Per order id: keys refunded, charged back (a won dispute reinstates the key and no longer
 * counts), returned, and replaced, in two grouped reads for a whole page of orders. Every
 * asked id has an entry (zeros where nothing happened).
 */
export async function afterSaleOf(ctx: AppContext, orderIds: string[]): Promise<Map<string, AfterSale>> {
  const states = new Map(orderIds.map((id) => [id, none()]));
  if (orderIds.length === 0) return states;
  const [taken, replaced] = await Promise.all([
    keysTakenBackPerOrder(ctx.db, orderIds),
    keysReplacedPerOrder(ctx.db, orderIds),
  ]);
  for (const row of taken) {
    const state = states.get(row.order_id);
    if (state) state[FIELD[row.cause]] += Number(row.keys);
  }
  for (const row of replaced) {
    const state = states.get(row.order_id);
    if (state) state.replaced += Number(row.keys);
  }
  return states;
}
