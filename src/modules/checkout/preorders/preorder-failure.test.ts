import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../../test/admin.js';
import { ENGINE, useTestApp } from '../../../../test/harness.js';
import { type PreorderScenario, preorderBody, preorderScenario } from '../../../../test/preorders.js';
import { call } from '../../../../test/route-contract.js';
import { createContext } from '../../../create-context.js';
import { openDatabase } from '../../../db/database.js';
import { promisedOnAllocation } from '../line/promised-capacity.repo.js';
import { failUnconvertiblePreorders } from './failure.service.js';

const t = useTestApp();

async function accept(s: PreorderScenario, quantity = 2) {
  const body = preorderBody(s, { quantity });
  const placed = await call(t, {
    method: 'POST',
    url: '/api/seller/v1/orders',
    headers: { ...s.seller.auth, 'idempotency-key': randomUUID() },
    payload: body,
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  expect(placed.body.data.type).toBe('reserved');
  return { reference: body.orderReference as string, orderId: placed.body.data.orderId as string };
}

const failures = async (sellerId: string) =>
  (await eventsFor(t, sellerId, 'order.failed')).map((e) => e.data);
const orderRow = (id: string) =>
  t.ctx.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('order.failed: accepted pre-orders that can no longer convert', () => {
  it('is in the event catalog: a webhook endpoint subscribes to it', async () => {
    const s = await preorderScenario(t);
    const created = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/webhooks',
      headers: s.seller.auth,
      payload: { url: 'https://hooks.example.com/in', eventTypes: ['order.failed'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.eventTypes).toEqual(['order.failed']);
  });

  it('fails a pre-order whose grant is revoked: order.failed with its reason, capacity released, no finance rows, once', async () => {
    const s = await preorderScenario(t);
    const { reference, orderId } = await accept(s, 2);
    expect(await promisedOnAllocation(t.ctx.db, s.allocationId, t.ctx.clock.now())).toBe(2);
    expect(await failUnconvertiblePreorders(t.ctx)).toBe(0); // nothing to fail yet
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'revoked' });
    expect(await failUnconvertiblePreorders(t.ctx)).toBe(1);
    expect(await failUnconvertiblePreorders(t.ctx)).toBe(0);
    expect(await failures(s.sellerId)).toEqual([
      { orderReference: reference, skuCode: s.skuCode, reasonCode: 'ALLOCATION_REVOKED' },
    ]);
    expect((await orderRow(orderId)).delivery).toBe('failed');
    expect(await promisedOnAllocation(t.ctx.db, s.allocationId, t.ctx.clock.now())).toBe(0);
    const sales = await t.ctx.db
      .selectFrom('sale_lines')
      .select('id')
      .where('order_id', '=', orderId)
      .execute();
    const activity = await t.ctx.db
      .selectFrom('activity_entries')
      .select('id')
      .where('order_id', '=', orderId)
      .execute();
    expect([sales, activity]).toEqual([[], []]);
    // The reference is spent: a retry conflicts, and the seller can neither cancel nor reveal it.
    const retry = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders',
      headers: { ...s.seller.auth, 'idempotency-key': randomUUID() },
      payload: preorderBody(s, { quantity: 2, orderReference: reference }),
    });
    expect(retry.status).toBe(409);
    expect(retry.body.details.reason).toBe('order_failed');
    const cancel = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders/cancel',
      headers: { ...s.seller.auth, 'idempotency-key': randomUUID() },
      payload: { orderReference: reference },
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body.details.reason).toBe('already_failed');
  });

  it('fails a pre-order whose product is delisted before release', async () => {
    const s = await preorderScenario(t);
    const { reference } = await accept(s, 1);
    await admin(t, 'PATCH', `/products/${s.productId}`, { isArchived: true });
    expect(await failUnconvertiblePreorders(t.ctx)).toBe(1);
    expect(await failures(s.sellerId)).toEqual([
      { orderReference: reference, skuCode: s.skuCode, reasonCode: 'PRODUCT_DELISTED' },
    ]);
  });

  it('fails a pre-order the publisher cancels, at once; a second cancel answers 409', async () => {
    const s = await preorderScenario(t);
    const { reference, orderId } = await accept(s, 1);
    const cancelled = await admin(t, 'POST', `/preorders/${orderId}/cancel`, undefined, 200);
    expect(cancelled).toEqual({ orderId, orderReference: reference, delivery: 'failed' });
    expect(await failures(s.sellerId)).toEqual([
      { orderReference: reference, skuCode: s.skuCode, reasonCode: 'PREORDER_CANCELLED_BY_PUBLISHER' },
    ]);
    expect(await promisedOnAllocation(t.ctx.db, s.allocationId, t.ctx.clock.now())).toBe(0);
    await admin(t, 'POST', `/preorders/${orderId}/cancel`, undefined, 409);
  });

  it('fails each pre-order once when two processes sweep at once (two app processes on PostgreSQL; accounting on SQLite)', async () => {
    const s = await preorderScenario(t);
    const placed = [await accept(s, 1), await accept(s, 1), await accept(s, 1)];
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'revoked' });
    const handle = ENGINE === 'postgres' ? openDatabase(t.config.database) : null;
    const other = handle ? await createContext(t.config, handle) : t.ctx;
    let counted: number[];
    try {
      counted = await Promise.all([
        failUnconvertiblePreorders(t.ctx),
        failUnconvertiblePreorders(other),
        failUnconvertiblePreorders(t.ctx),
        failUnconvertiblePreorders(other),
      ]);
    } finally {
      if (handle) {
        await other.close();
        await handle.close();
      }
    }
    expect(counted.reduce((a, b) => a + b, 0)).toBe(3);
    const events = await failures(s.sellerId);
    expect(events.map((e) => e.orderReference).sort()).toEqual(placed.map((p) => p.reference).sort());
  });
});
