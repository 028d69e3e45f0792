import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../test/admin.js';
import { alwaysOrder, ordersOf, post, US_SALE } from '../../../test/checkout.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { sweepRedemptions } from './orders/redemptions.service.js';

const t = useTestApp();

describeRouteContract('POST /orders/preview', t, {
  method: 'POST',
  url: () => '/api/seller/v1/orders/preview',
  body: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 1, countryCode: 'US' },
  scopes: ['seller:orders:preview', 'seller:keys:pull'],
  badInput: { body: { skuCode: 'SANDBOX-ALWAYS-001' } },
});

describeRouteContract('GET /orders/{orderReadableId}', t, {
  method: 'GET',
  url: async (_t, seller) => {
    const order = await post(t, seller, '/orders', alwaysOrder());
    return `/api/seller/v1/orders/${order.body.data.orderReadableId}`;
  },
  scopes: ['seller:products:read'],
  otherCompanyUrl: async (_t, owner) => {
    const order = await post(t, owner, '/orders', alwaysOrder());
    return `/api/seller/v1/orders/${order.body.data.orderReadableId}`;
  },
});

describe('POST /orders/preview', () => {
  it('quotes the price to echo with a commitment that an order accepts, and canFulfill', async () => {
    const seller = await makeSeller(t);
    const preview = await post(t, seller, '/orders/preview', {
      skuCode: 'SANDBOX-ALWAYS-001',
      quantity: 2,
      integrationOrderContext: {
        ...US_SALE,
        salesTaxRatePercent: 10,
        salesPriceGrossMinor: 2200,
        priceIncludesTax: true,
      },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const line = preview.body.data;
    expect(line).toMatchObject({
      unitPriceCents: 1999,
      initialUnitPriceCents: 1999,
      promo: null,
      promoResolution: 'none',
      canFulfill: true,
      countryCode: 'US',
      currencyCode: 'USD',
      settlement: {
        declaredRatePercent: 10,
        appliedRatePercent: 10,
        grossMinor: 2200,
        netMinor: 2000,
        vatMinor: 200,
      },
    });
    expect(preview.body.data.lines).toEqual([expect.objectContaining({ unitPriceCents: 1999 })]);
    const order = await post(t, seller, '/orders', {
      ...alwaysOrder({ quantity: 2, expectedUnitPriceCents: undefined }),
      priceCommitmentToken: line.priceCommitmentToken,
    });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const tampered = `${line.priceCommitmentToken.slice(0, -2)}xx`;
    expectApiError(
      await post(t, seller, '/orders', {
        ...alwaysOrder({ expectedUnitPriceCents: undefined }),
        priceCommitmentToken: tampered,
      }),
      422,
      'PRICE_COMMITMENT_INVALID',
    );
    expectApiError(
      await post(t, seller, '/orders', {
        ...alwaysOrder({ expectedUnitPriceCents: 1500 }),
        priceCommitmentToken: line.priceCommitmentToken,
      }),
      422,
      'EXPECTED_PRICE_CONFLICT',
    );
  });

  it('says canFulfill false for SANDBOX-NOKEYS-001 and applies promotions to the price', async () => {
    const seller = await makeSeller(t);
    const none = await post(t, seller, '/orders/preview', {
      skuCode: 'SANDBOX-NOKEYS-001',
      quantity: 1,
      countryCode: 'US',
    });
    expect(none.body.data).toMatchObject({ canFulfill: false, maxFulfillableQuantity: 0 });
    const sku = await t.ctx.db
      .selectFrom('skus')
      .select(['id'])
      .where('code', '=', 'SANDBOX-STD-001')
      .executeTakeFirstOrThrow();
    const now = t.ctx.clock.now();
    await admin(t, 'POST', '/promotions', {
      skuId: sku.id,
      sellerCompanyId: seller.company.id,
      discountPercent: 25,
      startsAt: new Date(now - 1000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
    });
    const promo = await post(t, seller, '/orders/preview', {
      skuCode: 'SANDBOX-STD-001',
      quantity: 1,
      countryCode: 'US',
    });
    expect(promo.body.data).toMatchObject({
      unitPriceCents: 1499,
      initialUnitPriceCents: 1999,
      promoResolution: 'applied',
      promo: { sourceType: 'deal', discountPercent: 25 },
    });
    const order = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-STD-001', expectedUnitPriceCents: 1499 }),
    );
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const [sale] = await t.ctx.db
      .selectFrom('sale_lines')
      .selectAll()
      .where('order_id', '=', order.body.data.orderId)
      .execute();
    expect(sale).toMatchObject({ sale_price_cents: 1499, initial_sale_price_cents: 1999 });
    expect(JSON.parse(sale!.promo!)).toMatchObject({ sourceType: 'deal' });
  });
});

describe('deferred reveal, keyless delivery, recovery and order reads', () => {
  it('defers the reveal, then reveals through POST /orders/{orderId}/fulfill', async () => {
    const seller = await makeSeller(t);
    const order = await post(t, seller, '/orders', alwaysOrder({ quantity: 2, immediateFulfilment: false }));
    expect(order.body.data).toMatchObject({ deferredReveal: true, keys: [], pulled: 2 });
    expect(order.body.data.keyIds).toHaveLength(2);
    const revealed = await post(t, seller, `/orders/${order.body.data.orderId}/fulfill`, {});
    expect(revealed.status, JSON.stringify(revealed.body)).toBe(200);
    expect(revealed.body.data.keys).toHaveLength(2);
    expect(revealed.body.data.keyIds).toEqual(order.body.data.keyIds);
    expect(revealed.body.data.activation).toEqual({ type: 'worldwide', countries: null });
  });

  it('delivers SANDBOX-KEYLESS-001 as a hosted redemption record for keyless sellers only', async () => {
    const seller = await makeSeller(t);
    const refused = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-KEYLESS-001', deliveryMode: 'keyless' }),
    );
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { keylessEnabled: true });
    const order = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-KEYLESS-001' }));
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(order.body.data.keys).toEqual([]);
    expect(order.body.data.redemption).toMatchObject({
      fulfillmentId: expect.any(String),
      expiresAt: expect.any(String),
    });
  });

  it('recovers the keys of a reference without pulling new ones, and lists orders without keys', async () => {
    const seller = await makeSeller(t);
    const body = alwaysOrder({ quantity: 2 });
    const order = await post(t, seller, '/orders', body);
    const recovered = await post(t, seller, '/orders/recover-keys', { orderReference: body.orderReference });
    expect(recovered.body.data.keys).toEqual(order.body.data.keys);
    expect(recovered.body.data.recovered).toBe(2);
    expectApiError(
      await post(t, seller, '/orders/recover-keys', { orderReference: 'nope' }),
      404,
      'NOT_FOUND',
    );
    expect(await ordersOf(t, seller.company.id)).toHaveLength(1);

    const list = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/orders?orderReference=${body.orderReference}`,
      headers: seller.auth,
    });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      orderReference: body.orderReference,
      quantity: 2,
      pulled: 2,
      keyIds: order.body.data.keyIds,
    });
    expect(list.raw).not.toContain(order.body.data.keys[0]);
    const one = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/orders/${order.body.data.orderReadableId}`,
      headers: seller.auth,
    });
    expect(one.body.data.id).toBe(order.body.data.orderId);
    expect(one.raw).not.toContain(order.body.data.keys[0]);
  });

  it('pages GET /orders newest first with a cursor', async () => {
    const seller = await makeSeller(t);
    for (let i = 0; i < 3; i++) await post(t, seller, '/orders', alwaysOrder());
    const first = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/orders?limit=2',
      headers: seller.auth,
    });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta).toMatchObject({ hasMore: true, count: 2 });
    const second = await call(t, { method: 'GET', url: first.body.meta.nextUrl, headers: seller.auth });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.meta.hasMore).toBe(false);
    const ids = [...first.body.data, ...second.body.data].map((o: { createdAt: string }) => o.createdAt);
    expect([...ids].sort().reverse()).toEqual(ids);
  });
});

describe('POST /orders/bulk', () => {
  const cart = (second: Record<string, unknown>) => [alwaysOrder(), alwaysOrder(second)];

  it('under 2026-09-01 is atomic by default: one refused line fulfils nothing', async () => {
    const seller = await makeSeller(t);
    const result = await post(t, seller, '/orders/bulk', { items: cart({ skuCode: 'SANDBOX-NOKEYS-001' }) });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.lines).toEqual([
      expect.objectContaining({ index: 1, code: 'NO_AVAILABLE_KEYS' }),
    ]);
    expect(await ordersOf(t, seller.company.id)).toHaveLength(0);
    const ok = await post(t, seller, '/orders/bulk', { items: cart({}) });
    expect(ok.body.meta).toEqual({ contractDate: '2026-09-01', strict: true, fulfilled: 2, failed: 0 });
  });

  it('under 2026-04-29 fulfils what it can and reports each line', async () => {
    const seller = await makeSeller(t);
    const result = await post(
      t,
      seller,
      '/orders/bulk',
      { items: cart({ skuCode: 'SANDBOX-TERR-BLOCK-001' }) },
      {
        'x-service-api-version': '2026-04-29',
      },
    );
    expect(result.status).toBe(200);
    expect(result.body.meta).toEqual({ contractDate: '2026-04-29', strict: false, fulfilled: 1, failed: 1 });
    expect(result.body.data.items[1]).toMatchObject({
      status: 'failed',
      error: { code: 'TERRITORY_EXCLUDED_FOR_RELEASE' },
    });
    expect(await ordersOf(t, seller.company.id)).toHaveLength(1);
    const strict = await post(
      t,
      seller,
      '/orders/bulk',
      { items: cart({ skuCode: 'SANDBOX-NOKEYS-001' }), strict: true },
      {
        'x-service-api-version': '2026-04-29',
      },
    );
    expectApiError(strict, 422, 'VALIDATION_FAILED');
  });
});

describe('POST /keys/pull and /keys/export', () => {
  it('pulls into custody against an allocation with keys.pulled and a pull activity entry', async () => {
    const seller = await makeSeller(t);
    const allocations = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations?limit=100',
      headers: seller.auth,
    });
    const std = allocations.body.data.find((a: { skuCode: string }) => a.skuCode === 'SANDBOX-STD-001');
    const pull = await post(t, seller, '/keys/pull', {
      allocationId: std.id,
      quantity: 3,
      countryCode: 'US',
    });
    expect(pull.status, JSON.stringify(pull.body)).toBe(200);
    expect(pull.body.data.keys).toHaveLength(3);
    const [event] = await eventsFor(t, seller.company.id, 'keys.pulled');
    expect(event?.data).toEqual({
      orderReference: pull.body.data.orderReference,
      skuCode: 'SANDBOX-STD-001',
      pulled: 3,
    });
    const activity = await t.ctx.db
      .selectFrom('activity_entries')
      .selectAll()
      .where('order_id', '=', pull.body.data.orderId)
      .execute();
    expect(activity).toMatchObject([{ kind: 'pull', sign: 1, quantity: 3 }]);
    expect(
      await t.ctx.db
        .selectFrom('sale_lines')
        .selectAll()
        .where('order_id', '=', pull.body.data.orderId)
        .execute(),
    ).toEqual([]);
  });

  it('exports a ZIP holding the plaintext keys', async () => {
    const seller = await makeSeller(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/seller/v1/keys/export',
      headers: seller.auth,
      payload: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 2, countryCode: 'US' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const path = join(mkdtempSync(join(tmpdir(), 'export-')), 'keys.zip');
    writeFileSync(path, response.rawPayload);
    const keys = execFileSync('unzip', ['-p', path, 'keys.txt']).toString().trim().split('\n');
    expect(keys).toHaveLength(2);
    const order = await t.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', String(response.headers['x-order-id']))
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ kind: 'export', pulled: 2 });
  });
});

describe('keyless redemption notices', () => {
  it('announces expiring about 24 h before and expired after, once each', async () => {
    const seller = await makeSeller(t);
    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { keylessEnabled: true });
    const order = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-KEYLESS-001' }));
    const { fulfillmentId, expiresAt } = order.body.data.redemption;
    const notices = async () =>
      (await eventsFor(t, seller.company.id)).filter((e) => e.event_type.startsWith('redemption.'));
    await sweepRedemptions(t.ctx);
    expect(await notices()).toEqual([]);
    t.ctx.testClock!.advance((Date.parse(expiresAt) - t.ctx.clock.now()) / 1000 - 23 * 3600);
    await sweepRedemptions(t.ctx);
    await sweepRedemptions(t.ctx);
    expect((await notices()).map((e) => e.event_type)).toEqual(['redemption.expiring']);
    t.ctx.testClock!.advance(24 * 3600);
    await sweepRedemptions(t.ctx);
    await sweepRedemptions(t.ctx);
    const sent = await notices();
    expect(sent.map((e) => e.event_type)).toEqual(['redemption.expiring', 'redemption.expired']);
    expect(sent[1]!.data).toMatchObject({
      fulfillmentId,
      orderReference: order.body.data.orderReference,
      expiresAt,
      effectiveAt: expiresAt,
    });
    expect(JSON.stringify(sent)).not.toMatch(/url|token/i);
  });
});

/** An order of the seller's company, placed with a full-scope key of that company. */
const owned = async (seller: Parameters<typeof post>[1]) => {
  const key = await makeKey(t, seller.company.id);
  return (await post(t, { ...seller, ...key }, '/orders', alwaysOrder())).body.data;
};

describeRouteContract('POST /orders/bulk', t, {
  method: 'POST',
  url: () => '/api/seller/v1/orders/bulk',
  body: { items: [alwaysOrder()] },
  scopes: ['seller:keys:pull'],
  badInput: { body: { items: [] } },
});
describeRouteContract('GET /orders', t, {
  method: 'GET',
  url: () => '/api/seller/v1/orders',
  scopes: ['seller:products:read'],
  badInput: { url: '/api/seller/v1/orders?limit=0' },
});
describeRouteContract('POST /orders/{orderId}/fulfill', t, {
  method: 'POST',
  url: async (_t, seller) => `/api/seller/v1/orders/${(await owned(seller)).orderId}/fulfill`,
  body: {},
  scopes: ['seller:keys:pull'],
  otherCompanyUrl: async (_t, owner) => `/api/seller/v1/orders/${(await owned(owner)).orderId}/fulfill`,
});
describeRouteContract('POST /orders/recover-keys', t, {
  method: 'POST',
  url: () => '/api/seller/v1/orders/recover-keys',
  body: { orderReference: 'unknown-ref' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { orderReference: '' } },
});
describeRouteContract('DELETE /orders/hold', t, {
  method: 'DELETE',
  url: () => '/api/seller/v1/orders/hold',
  body: { holdId: '0190a3c4-0000-7000-8000-000000000000' },
  headers: { 'idempotency-key': 'contract-release' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { holdId: 'nope' } },
});
describeRouteContract('POST /keys/pull', t, {
  method: 'POST',
  url: () => '/api/seller/v1/keys/pull',
  body: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 1, countryCode: 'US' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 1001 } },
});
describeRouteContract('POST /keys/export', t, {
  method: 'POST',
  url: () => '/api/seller/v1/keys/export',
  body: { skuCode: 'SANDBOX-ALWAYS-001', quantity: 1, countryCode: 'US' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { quantity: 1, unknownField: true } },
});
