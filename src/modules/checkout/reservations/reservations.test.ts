import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../../test/admin.js';
import { useTestApp } from '../../../../test/harness.js';
import { commitBody, hotDropScenario, reserveBody, seller } from '../../../../test/hot-drop.js';
import { type ProductionScenario, productionOrder, productionScenario } from '../../../../test/production.js';
import { call, describeRouteContract, expectApiError } from '../../../../test/route-contract.js';
import { pulledOn } from '../../../../test/stored.js';

const t = useTestApp();
const url = (path: string) => `/api/seller/v1${path}`;

const post = (s: ProductionScenario, path: string, body: unknown, key?: string) =>
  call(t, {
    method: 'POST',
    url: url(path),
    headers: seller(s, key),
    payload: body as Record<string, unknown>,
  });
const reserve = (s: ProductionScenario, overrides: Record<string, unknown> = {}) =>
  post(s, '/orders/reserve', reserveBody(s, overrides));
/** A checkout hold of `quantity` for a US buyer, the seller's holds enabled; answers 200. */
const holdOf = async (s: ProductionScenario, quantity: number, orderReference: string) => {
  await admin(t, 'PATCH', `/companies/${s.sellerId}`, { checkoutHoldEnabled: true });
  const held = await post(s, '/orders/hold', {
    skuCode: s.skuCode,
    quantity,
    countryCode: 'US',
    orderReference,
  });
  expect(held.status, JSON.stringify(held.body)).toBe(200);
};
const available = async (s: ProductionScenario) =>
  (await call(t, { method: 'GET', url: url(`/availability?skuCode=${s.skuCode}`), headers: s.seller.auth }))
    .body.data;
const reservationRow = (id: string) =>
  t.ctx.db.selectFrom('reservations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describeRouteContract('POST /orders/reserve', t, {
  method: 'POST',
  url: () => url('/orders/reserve'),
  body: { skuCode: 'SANDBOX-STD-001', quantity: 1, countryCode: 'US', orderReference: 'contract-reserve' },
  headers: { 'idempotency-key': 'contract-reserve' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { skuCode: 'SANDBOX-STD-001', quantity: 0, countryCode: 'US', orderReference: 'x' } },
});

describe('hot-drop reservations', () => {
  it('refuses a reservation on an allocation that is not in hot-drop mode', async () => {
    const s = await productionScenario(t);
    expectApiError(await reserve(s), 412, 'HOT_DROP_NOT_ENABLED');
  });

  it('reserves without claiming a key, counts as promised capacity and emits order.reserved', async () => {
    const s = await hotDropScenario(t, { keyCount: 5 });
    const before = await available(s);
    const r = await reserve(s, { quantity: 2 });
    expect(r.status).toBe(200);
    const data = r.body.data;
    expect(data).toMatchObject({
      type: 'reservation',
      allocationId: s.allocationId,
      quantity: 2,
      remainingSlots: 3,
    });
    expect(data.expiresInSeconds).toBe(60);
    const left = Date.parse(data.expiresAt) - t.ctx.clock.now();
    expect(left).toBeGreaterThan(59_000);
    expect(left).toBeLessThanOrEqual(60_000);
    const keys = await t.ctx.db
      .selectFrom('game_keys')
      .select('state')
      .where('pool_id', '=', s.poolId)
      .execute();
    expect(keys.every((k) => k.state === 'available')).toBe(true);
    expect(JSON.stringify(await available(s))).not.toBe(JSON.stringify(before));
    const events = await eventsFor(t, s.sellerId, 'order.reserved');
    expect(events.map((e) => e.data)).toEqual([
      { orderReference: data.orderReference, skuCode: s.skuCode, quantity: 2, expectedReleaseAt: null },
    ]);
  });

  it('refuses a quantity above the allocation term with QUANTITY_INVALID', async () => {
    const s = await hotDropScenario(t, { reservationMaxQuantity: 2 });
    const r = await reserve(s, { quantity: 3 });
    expectApiError(r, 422, 'QUANTITY_INVALID');
    expect(r.body.details).toMatchObject({ maximum: 2, requested: 3 });
  });

  it('runs the hold gates: a paused allocation is FORBIDDEN, a wrong price CATALOG_PRICE_MISMATCH, unknown SKU NOT_FOUND', async () => {
    const s = await hotDropScenario(t);
    expectApiError(await reserve(s, { expectedUnitPriceCents: 1 }), 422, 'CATALOG_PRICE_MISMATCH');
    expectApiError(await reserve(s, { skuCode: 'NO-SUCH-SKU' }), 404, 'NOT_FOUND');
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'paused' });
    expectApiError(await reserve(s), 403, 'FORBIDDEN');
  });

  it('answers SOLD_OUT when no slot is left, and holds and orders see the reservations', async () => {
    const s = await hotDropScenario(t, { keyCount: 3 });
    for (let i = 0; i < 3; i++) expect((await reserve(s)).status).toBe(200);
    const refused = await reserve(s);
    expectApiError(refused, 409, 'SOLD_OUT');
    expect(refused.body.details).toMatchObject({ available: 0 });
    const order = await post(s, '/orders', productionOrder(s));
    expectApiError(order, 409, 'NO_AVAILABLE_KEYS');
  });

  it('sees holds: reservations never take what live holds promised', async () => {
    const s = await hotDropScenario(t, { keyCount: 3 });
    await holdOf(s, 2, 'h-1');
    expect((await reserve(s)).body.data.remainingSlots).toBe(0);
    expectApiError(await reserve(s), 409, 'SOLD_OUT');
  });

  it('commits through the order path: keys, order, sale line, order.fulfilled; a second commit is gone', async () => {
    const s = await hotDropScenario(t, { keyCount: 4 });
    const r = (await reserve(s, { quantity: 2 })).body.data;
    const committed = await post(s, '/orders/commit', commitBody(s, r.reservationId));
    expect(committed.status).toBe(200);
    const data = committed.body.data;
    expect(data).toMatchObject({ type: 'fulfilled', skuCode: s.skuCode, orderReference: r.orderReference });
    expect(data.keys).toHaveLength(2);
    expect(data.keyIds).toHaveLength(2);
    expect((await reservationRow(r.reservationId)).status).toBe('consumed');
    const sales = await t.ctx.db
      .selectFrom('sale_lines')
      .selectAll()
      .where('seller_company_id', '=', s.sellerId)
      .execute();
    expect(sales.reduce((n, l) => n + l.quantity, 0)).toBe(2);
    expect((await eventsFor(t, s.sellerId, 'order.fulfilled')).map((e) => e.data.orderReference)).toEqual([
      r.orderReference,
    ]);
    expect(await pulledOn(t, s.allocationId)).toBe(2);
    expectApiError(await post(s, '/orders/commit', commitBody(s, r.reservationId)), 410, 'RESERVATION_GONE');
    // Two keys left, nothing else promised: a plain order may take them.
    const plain = await post(s, '/orders', productionOrder(s, { quantity: 2 }));
    expect(plain.status).toBe(200);
    // The commit's order names its reservation (in its own insert); the plain order names none.
    const linkOf = async (orderId: string) =>
      (
        await t.ctx.db
          .selectFrom('orders')
          .select('reservation_id')
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow()
      ).reservation_id;
    expect(await linkOf(data.orderId)).toBe(r.reservationId);
    expect(await linkOf(plain.body.data.orderId)).toBeNull();
  });

  it('applies the declarations at commit, leaving the reservation live when they are missing', async () => {
    const s = await hotDropScenario(t);
    const r = (await reserve(s)).body.data;
    const { salesChannel: _omitted, ...declaration } = commitBody(s, r.reservationId).integrationOrderContext;
    const refused = await post(s, '/orders/commit', {
      reservationId: r.reservationId,
      integrationOrderContext: declaration,
    });
    expectApiError(refused, 422, 'SALES_CHANNEL_REQUIRED');
    expect((await reservationRow(r.reservationId)).status).toBe('live');
    expect((await post(s, '/orders/commit', commitBody(s, r.reservationId))).status).toBe(200);
  });

  it('answers RESERVATION_GONE for an unknown reservation and for another company', async () => {
    const s = await hotDropScenario(t);
    const other = await hotDropScenario(t);
    const r = (await reserve(s)).body.data;
    expectApiError(
      await post(other, '/orders/commit', commitBody(other, r.reservationId)),
      410,
      'RESERVATION_GONE',
    );
    const unknown = '0190f0a0-0000-7000-8000-000000000000';
    expectApiError(await post(s, '/orders/commit', commitBody(s, unknown)), 410, 'RESERVATION_GONE');
  });

  it('refuses a commit whose orderReference another order took, whether or not the line passes', async () => {
    const s = await hotDropScenario(t, { keyCount: 4 });
    const r = (await reserve(s)).body.data;
    const ordered = await call(t, {
      method: 'POST',
      url: url('/orders'),
      headers: s.seller.auth,
      payload: productionOrder(s, { orderReference: r.orderReference }),
    });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    // The line refused (no sales channel declared): the reference is named first.
    const { salesChannel: _omitted, ...declaration } = commitBody(s, r.reservationId).integrationOrderContext;
    expectApiError(
      await post(s, '/orders/commit', {
        reservationId: r.reservationId,
        integrationOrderContext: declaration,
      }),
      409,
      'ORDER_REFERENCE_CONFLICT',
    );
    // The line accepted: the order meets the other one on the reference's unique index.
    expectApiError(
      await post(s, '/orders/commit', commitBody(s, r.reservationId)),
      409,
      'ORDER_REFERENCE_CONFLICT',
    );
    expect((await reservationRow(r.reservationId)).status).toBe('live');
  });

  it('refuses a commit with ALLOCATION_NOT_AVAILABLE once the grant is paused or hot-drop is off', async () => {
    const s = await hotDropScenario(t, { keyCount: 4 });
    const a = (await reserve(s)).body.data;
    const b = (await reserve(s)).body.data;
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'paused' });
    expectApiError(
      await post(s, '/orders/commit', commitBody(s, a.reservationId)),
      409,
      'ALLOCATION_NOT_AVAILABLE',
    );
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'active', hotDrop: false });
    expectApiError(
      await post(s, '/orders/commit', commitBody(s, b.reservationId)),
      409,
      'ALLOCATION_NOT_AVAILABLE',
    );
    expect((await reservationRow(b.reservationId)).status).toBe('live');
  });

  it('commits past a promise placed since, and refuses one the limit no longer covers, leaving it live', async () => {
    const s = await hotDropScenario(t, { keyCount: 4 });
    const a = (await reserve(s)).body.data;
    const b = (await reserve(s)).body.data;
    await holdOf(s, 2, 'h-after-reserve');
    // The hold moved the grant's promises: the reservation's units were carved before it.
    expect((await post(s, '/orders/commit', commitBody(s, a.reservationId))).status).toBe(200);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { quantityLimit: 1 });
    expectApiError(await post(s, '/orders/commit', commitBody(s, b.reservationId)), 409, 'NO_AVAILABLE_KEYS');
    expect((await reservationRow(b.reservationId)).status).toBe('live');
    expect(await pulledOn(t, s.allocationId)).toBe(1);
  });

  it('extends once by the TTL; the second extension is exhausted; an expired reservation is gone', async () => {
    const s = await hotDropScenario(t);
    const r = (await reserve(s)).body.data;
    const extended = await post(s, `/orders/${r.reservationId}/extend`, undefined);
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.data.expiresAt)).toBe(Date.parse(r.expiresAt) + 60_000);
    expectApiError(
      await post(s, `/orders/${r.reservationId}/extend`, undefined),
      409,
      'RESERVATION_EXTEND_EXHAUSTED',
    );
    t.ctx.testClock!.advance(121);
    expectApiError(await post(s, `/orders/${r.reservationId}/extend`, undefined), 410, 'RESERVATION_GONE');
    expectApiError(await post(s, '/orders/commit', commitBody(s, r.reservationId)), 410, 'RESERVATION_GONE');
  });

  it('binds the effective price at reserve when none is sent, and commits at it', async () => {
    const s = await hotDropScenario(t);
    const r = await reserve(s, { expectedUnitPriceCents: undefined });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ unitPriceCents: 5999, currencyCode: 'USD' });
    const committed = await post(s, '/orders/commit', commitBody(s, r.body.data.reservationId));
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    expect(committed.body.data).toMatchObject({ type: 'fulfilled', unitPriceCents: 5999 });
    expect(committed.body.data.keys).toHaveLength(1);
    const order = await t.ctx.db
      .selectFrom('orders')
      .select(['unit_price_cents', 'currency_code'])
      .where('order_reference', '=', r.body.data.orderReference)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ unit_price_cents: 5999, currency_code: 'USD' });
  });

  it("keeps the reservation's price when the catalog price moves before the commit", async () => {
    const s = await hotDropScenario(t);
    const sent = (await reserve(s)).body.data;
    const quoted = (await reserve(s, { expectedUnitPriceCents: undefined })).body.data;
    expect(sent.unitPriceCents).toBe(5999);
    await admin(
      t,
      'PUT',
      `/releases/${s.releaseId}/prices`,
      { countryCode: 'US', currencyCode: 'USD', listPriceCents: 7999 },
      200,
    );
    for (const r of [sent, quoted]) {
      const committed = await post(s, '/orders/commit', commitBody(s, r.reservationId));
      expect(committed.status, JSON.stringify(committed.body)).toBe(200);
      expect(committed.body.data.unitPriceCents).toBe(5999);
    }
    const extended = await post(
      s,
      `/orders/${(await reserve(s, { expectedUnitPriceCents: undefined })).body.data.reservationId}/extend`,
      undefined,
    );
    expect(extended.body.data).toMatchObject({ unitPriceCents: 7999, currencyCode: 'USD' });
  });
});
