import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../../test/admin.js';
import { alwaysOrder, ordersOf, post, ref, US_SALE } from '../../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../../test/factories.js';
import { useTestApp } from '../../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../../test/route-contract.js';

const t = useTestApp();

const holdBody = (overrides: Record<string, unknown> = {}) => ({
  skuCode: 'SANDBOX-STD-001',
  quantity: 2,
  countryCode: 'US',
  orderReference: ref('hold'),
  ...overrides,
});
const idem = () => ({ 'idempotency-key': ref('idem') });

async function holdingSeller(): Promise<TestSeller> {
  const seller = await makeSeller(t);
  await admin(t, 'PATCH', `/companies/${seller.company.id}`, { checkoutHoldEnabled: true });
  return seller;
}

const placeHold = (seller: TestSeller, body: Record<string, unknown>) =>
  post(t, seller, '/orders/hold', body, idem());
const orderFor = (
  body: ReturnType<typeof holdBody>,
  holdId: string,
  overrides: Record<string, unknown> = {},
) =>
  alwaysOrder({
    skuCode: body.skuCode,
    quantity: body.quantity,
    orderReference: body.orderReference,
    checkoutHoldId: holdId,
    ...overrides,
  });
const availability = async (seller: TestSeller, sku = 'SANDBOX-STD-001') =>
  (await call(t, { method: 'GET', url: `/api/seller/v1/availability?skuCode=${sku}`, headers: seller.auth }))
    .body.data;

describeRouteContract('POST /orders/hold', t, {
  method: 'POST',
  url: () => '/api/seller/v1/orders/hold',
  body: holdBody(),
  headers: { 'idempotency-key': 'contract-hold' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { ...holdBody(), ttlSeconds: 0 } },
});

describe('checkout holds', () => {
  it('requires an Idempotency-Key and the checkout-hold capability (on by default)', async () => {
    const seller = await makeSeller(t);
    expectApiError(await post(t, seller, '/orders/hold', holdBody()), 400, 'BAD_REQUEST');
    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { checkoutHoldEnabled: false });
    expectApiError(await placeHold(seller, holdBody()), 412, 'CHECKOUT_HOLD_DISABLED');
  });

  it('holds capacity, defaults the TTL to 30 minutes, and is consumed by the matching order', async () => {
    const seller = await holdingSeller();
    const body = holdBody();
    const hold = await placeHold(seller, body);
    expect(hold.status, JSON.stringify(hold.body)).toBe(200);
    expect(hold.body.data).toMatchObject({
      type: 'checkout_hold',
      expiresInSeconds: 1800,
      maxFulfillableQuantity: 2,
      unitPriceCents: 1999,
      currencyCode: 'USD',
      promoResolution: 'none',
    });
    expect((await availability(seller)).available).toBe(23);
    const order = await post(t, seller, '/orders', orderFor(body, hold.body.data.holdId));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(order.body.data.checkoutHold).toEqual({
      holdId: hold.body.data.holdId,
      status: 'consumed',
      committedWithoutHold: false,
    });
    const release = await call(t, {
      method: 'DELETE',
      url: '/api/seller/v1/orders/hold',
      headers: { ...seller.auth, ...idem() },
      payload: { holdId: hold.body.data.holdId },
    });
    expect(release.body.data).toEqual({ holdId: hold.body.data.holdId, status: 'consumed', released: false });
  });

  it('clamps the TTL to 1 minute .. 1 hour', async () => {
    const seller = await holdingSeller();
    const short = await placeHold(seller, holdBody({ quantity: 1, ttlSeconds: 5 }));
    const long = await placeHold(seller, holdBody({ quantity: 1, ttlSeconds: 86_400 }));
    expect(short.body.data.expiresInSeconds).toBe(60);
    expect(long.body.data.expiresInSeconds).toBe(3600);
  });

  it('never promises more than exists: SOLD_OUT, and plain orders cannot take held keys', async () => {
    const seller = await holdingSeller();
    const big = await placeHold(seller, holdBody({ quantity: 20 }));
    expect(big.status).toBe(200);
    expectApiError(await placeHold(seller, holdBody({ quantity: 6 })), 409, 'SOLD_OUT');
    const plain = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-STD-001', quantity: 6 }));
    expectApiError(plain, 409, 'NO_AVAILABLE_KEYS');
    const five = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-STD-001', quantity: 5 }));
    expect(five.status).toBe(200);
  });

  it('refuses an order whose body does not match the hold, and a currency other than the hold', async () => {
    const seller = await holdingSeller();
    const body = holdBody();
    const hold = await placeHold(seller, body);
    const holdId = hold.body.data.holdId;
    const mismatch = await post(t, seller, '/orders', orderFor(body, holdId, { quantity: 1 }));
    expectApiError(mismatch, 422, 'HOLD_MISMATCH');
    expect(mismatch.body.details).toMatchObject({
      recommendedAction: 'fallback_to_post_orders_without_hold',
      mismatchedFields: ['quantity'],
    });
    const currency = await post(
      t,
      seller,
      '/orders',
      orderFor(body, holdId, { integrationOrderContext: { ...US_SALE, currencyCode: 'EUR' } }),
    );
    expectApiError(currency, 422, 'CURRENCY_MISMATCH');
    const unknown = await post(t, seller, '/orders', orderFor(body, '0190a3c4-0000-7000-8000-000000000000'));
    expectApiError(unknown, 422, 'HOLD_NOT_FOUND');
    expect(await ordersOf(t, seller.company.id)).toHaveLength(0);
  });

  it('commits a plain order when the hold expired, was released or was cancelled by a pause', async () => {
    const seller = await holdingSeller();
    const expiring = holdBody({ quantity: 1, ttlSeconds: 60 });
    const expired = await placeHold(seller, expiring);
    t.ctx.testClock!.advance(61);
    const late = await post(t, seller, '/orders', orderFor(expiring, expired.body.data.holdId));
    expect(late.status).toBe(200);
    expect(late.body.data.checkoutHold).toMatchObject({
      status: 'expired',
      committedWithoutHold: true,
      endedAs: 'expired',
    });

    const released = holdBody({ quantity: 1 });
    const second = await placeHold(seller, released);
    const del = await call(t, {
      method: 'DELETE',
      url: '/api/seller/v1/orders/hold',
      headers: { ...seller.auth, ...idem() },
      payload: { holdId: second.body.data.holdId },
    });
    expect(del.body.data).toEqual({ holdId: second.body.data.holdId, status: 'released', released: true });
    const after = await post(t, seller, '/orders', orderFor(released, second.body.data.holdId));
    expect(after.body.data.checkoutHold).toMatchObject({
      status: 'expired',
      committedWithoutHold: true,
      endedAs: 'released',
    });

    const paused = holdBody({ quantity: 1 });
    const third = await placeHold(seller, paused);
    const allocationId = third.body.data.allocationId;
    await admin(t, 'PATCH', `/allocations/${allocationId}`, { status: 'paused' });
    const update = (await eventsFor(t, seller.company.id, 'allocation.updated')).at(-1);
    expect(update?.data).toMatchObject({ allocationId, reason: 'paused' });
    const row = await t.ctx.db
      .selectFrom('checkout_holds')
      .selectAll()
      .where('id', '=', third.body.data.holdId)
      .executeTakeFirst();
    expect(row?.status).toBe('cancelled');
    await admin(t, 'PATCH', `/allocations/${allocationId}`, { status: 'active' });
    const resumed = await post(t, seller, '/orders', orderFor(paused, third.body.data.holdId));
    expect(resumed.body.data.checkoutHold).toMatchObject({
      status: 'expired',
      committedWithoutHold: true,
      endedAs: 'cancelled',
    });
  });

  it('refuses holds on a paused allocation and on a paused agreement', async () => {
    const seller = await holdingSeller();
    const first = await placeHold(seller, holdBody({ quantity: 1 }));
    await admin(t, 'PATCH', `/allocations/${first.body.data.allocationId}`, { status: 'paused' });
    expectApiError(await placeHold(seller, holdBody({ quantity: 1 })), 403, 'FORBIDDEN');
    const [agreement] = await t.ctx.db
      .selectFrom('agreements')
      .innerJoin('partner_connections', 'partner_connections.id', 'agreements.connection_id')
      .select('agreements.id')
      .where('partner_connections.seller_company_id', '=', seller.company.id)
      .execute();
    await admin(t, 'PATCH', `/agreements/${agreement!.id}`, { status: 'paused' });
    expectApiError(
      await placeHold(seller, holdBody({ quantity: 1, skuCode: 'SANDBOX-ALWAYS-001' })),
      403,
      'CONTRACT_NOT_ACTIVE',
    );
  });
});
