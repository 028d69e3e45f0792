import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../../test/admin.js';
import { useTestApp } from '../../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../../test/production.js';
import { call } from '../../../../test/route-contract.js';

const t = useTestApp();

/**
 * An order's events are written with its counter update: on PostgreSQL by the fast path's one
 * statement, which fills in `remaining` and `threshold` itself (fast-commit.pg.ts), on SQLite by
 * the service. Both must read exactly alike.
 */
describe("an order's events", () => {
  it('are the order, then the grant update, low stock when crossed and depletion, in that order', async () => {
    const s = await productionScenario(t, { keyCount: 5, quantityLimit: 4 });
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { lowStockThreshold: 2 });
    const orderOf = async (quantity: number) => {
      const body = productionOrder(s, { quantity });
      const placed = await call(t, {
        method: 'POST',
        url: '/api/seller/v1/orders',
        headers: s.seller.auth,
        payload: body,
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      return body.orderReference as string;
    };
    const setup = (await eventsFor(t, s.sellerId)).length;
    const retries = async () => (await t.ctx.metrics.orderFastPathRetries.get()).values[0]?.value ?? 0;
    const retriesBefore = await retries();
    const references = [await orderOf(1), await orderOf(1), await orderOf(2)];

    const events = (await eventsFor(t, s.sellerId)).slice(setup);
    const grant = { allocationId: s.allocationId, skuCode: s.skuCode };
    const fulfilled = (i: number, quantity: number) => ({
      type: 'order.fulfilled',
      data: {
        orderReference: references[i],
        skuCode: s.skuCode,
        quantity,
        pulled: quantity,
        fulfilledAt: expect.any(String),
      },
    });
    expect(events.map((e) => ({ type: e.event_type, data: e.data }))).toEqual([
      fulfilled(0, 1),
      { type: 'allocation.updated', data: { ...grant, remaining: 3 } },
      fulfilled(1, 1),
      { type: 'allocation.updated', data: { ...grant, remaining: 2 } },
      { type: 'allocation.low_stock', data: { ...grant, remaining: 2, threshold: 2 } },
      fulfilled(2, 2),
      { type: 'allocation.updated', data: { ...grant, remaining: 0 } },
      { type: 'allocation.depleted', data: { ...grant, remaining: 0 } },
    ]);
    expect(events.map((e) => JSON.stringify(e.data))).toEqual(events.map((e) => e.payload));
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    // Nothing moved the grant between quote and commit: on PostgreSQL each order took the
    // one-statement path at the first try.
    expect(await retries()).toBe(retriesBefore);
  });
});
