import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../../test/admin.js';
import { useTestApp } from '../../../../test/harness.js';
import {
  importPreorderKeys,
  type PreorderScenario,
  preorderBody,
  preorderScenario,
  release,
} from '../../../../test/preorders.js';
import { call, expectApiError } from '../../../../test/route-contract.js';
import { promisedOnAllocation } from '../line/promised-capacity.repo.js';
import { convertReleasedPreorders } from './conversion.service.js';

const t = useTestApp();

const seller = (s: PreorderScenario, method: 'POST' | 'GET', url: string, body?: unknown) =>
  call(t, {
    method,
    url: `/api/seller/v1${url}`,
    headers: { ...s.seller.auth, 'idempotency-key': randomUUID() },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });

async function preorder(s: PreorderScenario, quantity = 1) {
  const body = preorderBody(s, { quantity });
  const placed = await seller(s, 'POST', '/orders', body);
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  expect(placed.body.data).toMatchObject({ type: 'reserved', keys: [], pulled: 0 });
  return { reference: body.orderReference as string, orderId: placed.body.data.orderId as string };
}

const orderRow = (id: string) =>
  t.ctx.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const keysOf = (orderId: string) =>
  t.ctx.db.selectFrom('game_keys').select(['id', 'state']).where('order_id', '=', orderId).execute();
const grant = (id: string) =>
  t.ctx.db.selectFrom('allocations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('pre-order conversion at release', () => {
  it('converts every accepted pre-order in place once the release is out, once', async () => {
    const s = await preorderScenario(t, { keyCount: 5 });
    const a = await preorder(s, 2);
    const b = await preorder(s, 1);
    expect(await convertReleasedPreorders(t.ctx)).toBe(0);

    await admin(t, 'PATCH', `/releases/${s.releaseId}`, { state: 'available' });
    // The product is still in its pre-order phase: the pre-order has not become its release.
    expect(await convertReleasedPreorders(t.ctx)).toBe(0);
    await admin(t, 'PATCH', `/products/${s.productId}`, { launchPhase: 'released' });
    expect(await convertReleasedPreorders(t.ctx)).toBe(2);
    expect(await convertReleasedPreorders(t.ctx)).toBe(0);

    const row = await orderRow(a.orderId);
    expect(row).toMatchObject({ delivery: 'deferred', pulled: 2, sku_id: s.skuId, revealed_at: null });
    expect((await keysOf(a.orderId)).map((k) => k.state)).toEqual(['sold', 'sold']);
    expect(await keysOf(b.orderId)).toHaveLength(1);
    expect((await grant(s.allocationId)).quantity_pulled).toBe(3);
    expect(await promisedOnAllocation(t.ctx.db, s.allocationId, t.ctx.clock.now())).toBe(0);

    const [sale] = await t.ctx.db
      .selectFrom('sale_lines')
      .selectAll()
      .where('order_id', '=', a.orderId)
      .execute();
    expect(sale).toMatchObject({
      entry_type: 'sale',
      quantity: 2,
      sale_price_cents: 2 * 5999,
      currency_code: 'USD',
      wholesale_cents: 2 * 3000,
      customer_region_code: 'US',
    });
    expect(JSON.parse(sale!.settlement!)).toMatchObject({ basis: 'declared_country', grossMinor: 6999 });

    const fulfilled = await eventsFor(t, s.sellerId, 'order.preorder_fulfilled');
    expect(fulfilled.map((e) => e.data)).toEqual([
      { orderReference: a.reference, skuCode: s.skuCode, quantity: 2, fulfilledAt: expect.any(String) },
      { orderReference: b.reference, skuCode: s.skuCode, quantity: 1, fulfilledAt: expect.any(String) },
    ]);
    const updates = await eventsFor(t, s.sellerId, 'allocation.updated');
    expect(updates.at(-1)!.data).toEqual({ allocationId: s.allocationId, skuCode: s.skuCode, remaining: 97 });

    // The seller takes the keys with fulfill (by id) or recover-keys (by reference).
    const revealed = await seller(s, 'POST', `/orders/${a.orderId}/fulfill`, {});
    expect(revealed.status, JSON.stringify(revealed.body)).toBe(200);
    expect(revealed.body.data.keys).toHaveLength(2);
    expect(revealed.body.data.keyIds).toEqual((await keysOf(a.orderId)).map((k) => k.id).sort());
    const recovered = await seller(s, 'POST', '/orders/recover-keys', { orderReference: b.reference });
    expect(recovered.body.data.keys).toHaveLength(1);
    // The same reference replays the order as it is now: fulfilled, deferred reveal.
    const replay = await seller(s, 'POST', '/orders', { ...preorderBody(s), orderReference: b.reference });
    expect(replay.body.data).toMatchObject({ type: 'fulfilled', deferredReveal: true, pulled: 1 });
  });

  it('keeps pre-orders reserved when keys are short and converts them oldest first as keys arrive', async () => {
    const s = await preorderScenario(t, { keyCount: 1 });
    const oldest = await preorder(s, 2);
    const middle = await preorder(s, 1);
    const newest = await preorder(s, 1);
    await release(t, s);

    // One key for an order of two: nothing is converted, and the newer orders do not jump the queue.
    expect(await convertReleasedPreorders(t.ctx)).toBe(0);
    for (const o of [oldest, middle, newest]) {
      expect((await orderRow(o.orderId)).delivery).toBe('preorder');
      expect(await keysOf(o.orderId)).toHaveLength(0);
    }
    expect(await eventsFor(t, s.sellerId, 'order.preorder_fulfilled')).toHaveLength(0);

    await importPreorderKeys(t, s, 1);
    expect(await convertReleasedPreorders(t.ctx)).toBe(1);
    expect((await orderRow(oldest.orderId)).delivery).toBe('deferred');
    expect((await orderRow(middle.orderId)).delivery).toBe('preorder');

    await importPreorderKeys(t, s, 2);
    expect(await convertReleasedPreorders(t.ctx)).toBe(2);
    const refs = (await eventsFor(t, s.sellerId, 'order.preorder_fulfilled')).map(
      (e) => e.data.orderReference,
    );
    expect(refs).toEqual([oldest.reference, middle.reference, newest.reference]);
    expect((await grant(s.allocationId)).quantity_pulled).toBe(4);
  });

  it('holds back the pre-orders of a paused grant until it resumes', async () => {
    const s = await preorderScenario(t, { keyCount: 2 });
    const placed = await preorder(s, 1);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'paused' });
    await release(t, s);
    expect(await convertReleasedPreorders(t.ctx)).toBe(0);
    expect((await orderRow(placed.orderId)).delivery).toBe('preorder');
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'active' });
    expect(await convertReleasedPreorders(t.ctx)).toBe(1);
  });
});

describe('POST /orders/cancel (pre-orders)', () => {
  it('cancels an accepted pre-order, gives its capacity back and emits order.returned', async () => {
    const s = await preorderScenario(t, { keyCount: 3, quantityLimit: 3 });
    const kept = await preorder(s, 1);
    const dropped = await preorder(s, 2);
    expect(await promisedOnAllocation(t.ctx.db, s.allocationId, t.ctx.clock.now())).toBe(3);
    // Promised to the limit: a further pre-order is refused.
    expectApiError(await seller(s, 'POST', '/orders', preorderBody(s)), 409, 'NO_AVAILABLE_KEYS');

    const cancelled = await seller(s, 'POST', '/orders/cancel', { orderReference: dropped.reference });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      type: 'preorder_cancelled',
      orderId: dropped.orderId,
      orderReference: dropped.reference,
      skuCode: s.skuCode,
      quantity: 2,
    });
    expect((await orderRow(dropped.orderId)).delivery).toBe('cancelled');
    expect(await promisedOnAllocation(t.ctx.db, s.allocationId, t.ctx.clock.now())).toBe(1);
    expect((await eventsFor(t, s.sellerId, 'order.returned')).map((e) => e.data)).toEqual([
      { orderReference: dropped.reference, quantity: 2 },
    ]);
    // The capacity is the allocation's again.
    await preorder(s, 2);

    const again = await seller(s, 'POST', '/orders/cancel', { orderReference: dropped.reference });
    expectApiError(again, 409, 'ORDER_NOT_CANCELLABLE');
    expect(again.body.details.reason).toBe('already_cancelled');
    const reused = await seller(s, 'POST', '/orders', {
      ...preorderBody(s, { quantity: 2 }),
      orderReference: dropped.reference,
    });
    expectApiError(reused, 409, 'ORDER_REFERENCE_CONFLICT');
    expectApiError(
      await seller(s, 'POST', `/orders/${dropped.orderId}/fulfill`, {}),
      422,
      'VALIDATION_FAILED',
    );

    await release(t, s);
    expect(await convertReleasedPreorders(t.ctx)).toBe(2);
    expect(await keysOf(dropped.orderId)).toHaveLength(0);
    const converted = await seller(s, 'POST', '/orders/cancel', { orderReference: kept.reference });
    expectApiError(converted, 409, 'ORDER_NOT_CANCELLABLE');
    expect(converted.body.details).toMatchObject({
      reason: 'already_converted',
      recommendedAction: 'return_keys',
    });
    expect(await eventsFor(t, s.sellerId, 'order.returned')).toHaveLength(1);
  });

  it('refuses an unknown reference, a live order and a body without orderReference', async () => {
    const s = await preorderScenario(t, { keyCount: 2 });
    expectApiError(await seller(s, 'POST', '/orders/cancel', { orderReference: 'nope' }), 404, 'NOT_FOUND');
    await release(t, s);
    const body = preorderBody(s);
    expect((await seller(s, 'POST', '/orders', body)).body.data.type).toBe('fulfilled');
    const live = await seller(s, 'POST', '/orders/cancel', { orderReference: body.orderReference });
    expectApiError(live, 409, 'ORDER_NOT_CANCELLABLE');
    expect(live.body.details.reason).toBe('not_a_preorder');
    expectApiError(await seller(s, 'POST', '/orders/cancel', {}), 422, 'VALIDATION_FAILED');
  });
});

describe('release events reach pre-order holders', () => {
  it('sends release.date_changed and release.available to a holder who no longer sees the product', async () => {
    const s = await preorderScenario(t, { keyCount: 1 });
    await preorder(s, 1);
    await admin(t, 'PATCH', `/connections/${s.connectionId}`, { sharesSuspended: true });
    const newDate = new Date(t.ctx.clock.now() + 7 * 86_400_000).toISOString();
    await admin(t, 'PATCH', `/releases/${s.releaseId}`, { releaseDate: newDate });
    await admin(t, 'PATCH', `/releases/${s.releaseId}`, { state: 'available' });
    const [moved] = await eventsFor(t, s.sellerId, 'release.date_changed');
    expect(moved!.data).toEqual({
      productId: s.productId,
      releaseId: s.releaseId,
      skuIds: [s.skuId],
      oldDate: null,
      newDate,
    });
    const available = await eventsFor(t, s.sellerId, 'release.available');
    expect(available.map((e) => e.data)).toEqual([{ productId: s.productId, releaseId: s.releaseId }]);
  });
});
