import { describe, expect, it } from 'vitest';
import { eventsFor } from '../../../../test/admin.js';
import { alwaysOrder, ordersOf, post, ref, soldKeysOf, US_SALE } from '../../../../test/checkout.js';
import { makeSeller } from '../../../../test/factories.js';
import { useTestApp } from '../../../../test/harness.js';
import { describeRouteContract, expectApiError } from '../../../../test/route-contract.js';

const t = useTestApp();

describeRouteContract('POST /orders', t, {
  method: 'POST',
  url: () => '/api/seller/v1/orders',
  body: alwaysOrder(),
  scopes: ['seller:keys:pull'],
  badInput: { body: { ...alwaysOrder(), quantity: 0 } },
});

describe('POST /orders on the sandbox fixtures', () => {
  it('fulfils SANDBOX-ALWAYS-001 with synthetic keys, recorded sold, with sale line and events', async () => {
    const seller = await makeSeller(t);
    const body = alwaysOrder({ quantity: 2 });
    const result = await post(t, seller, '/orders', body);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const data = result.body.data;
    expect(data).toMatchObject({
      type: 'fulfilled',
      skuCode: 'SANDBOX-ALWAYS-001',
      pulled: 2,
      orderReference: body.orderReference,
      activation: { type: 'worldwide', countries: null },
      warnings: [],
    });
    expect(data.keys).toHaveLength(2);
    for (const key of data.keys) expect(key).toMatch(/^SBX-ALWAYS-[A-Z0-9]{12}$/);
    expect(new Set(data.keys).size).toBe(2);
    const stored = await soldKeysOf(t, data.orderId);
    expect(stored.map((k) => k.id).sort()).toEqual([...data.keyIds].sort());
    expect(stored.every((k) => k.state === 'sold')).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(data.keys[0]);
    const [sale] = await t.ctx.db
      .selectFrom('sale_lines')
      .selectAll()
      .where('order_id', '=', data.orderId)
      .execute();
    expect(sale).toMatchObject({
      entry_type: 'sale',
      quantity: 2,
      unit_price_cents: 1999,
      sale_price_cents: 3998,
      currency_code: 'USD',
      customer_region_code: 'US',
    });
    expect(JSON.parse(sale!.settlement!)).toMatchObject({
      declaredRatePercent: 0,
      evidenceRank: 3,
      grossMinor: 1999,
    });
    const fulfilled = await eventsFor(t, seller.company.id, 'order.fulfilled');
    expect(fulfilled.map((e) => e.data)).toEqual([
      expect.objectContaining({
        orderReference: body.orderReference,
        skuCode: 'SANDBOX-ALWAYS-001',
        quantity: 2,
        pulled: 2,
      }),
    ]);
    expect(JSON.stringify(await eventsFor(t, seller.company.id))).not.toContain(data.keys[0]);
  });

  it('replays a known orderReference with the original keys and refuses a larger quantity', async () => {
    const seller = await makeSeller(t);
    const body = alwaysOrder();
    const first = await post(t, seller, '/orders', body);
    const again = await post(t, seller, '/orders', body);
    expect(again.status).toBe(200);
    expect(again.body.data.keys).toEqual(first.body.data.keys);
    expect(await ordersOf(t, seller.company.id)).toHaveLength(1);
    const more = await post(t, seller, '/orders', { ...body, quantity: 2 });
    expectApiError(more, 409, 'ORDER_REFERENCE_CONFLICT');
    expect(await ordersOf(t, seller.company.id)).toHaveLength(1);
  });

  it('keeps sandbox order references per API key', async () => {
    const seller = await makeSeller(t);
    const other = await makeSeller(t);
    const body = alwaysOrder();
    await post(t, seller, '/orders', body);
    const otherKey = await post(t, other, '/orders', body);
    expect(otherKey.status).toBe(200);
  });

  it('answers each refusing fixture with its code and pulls nothing', async () => {
    const seller = await makeSeller(t);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ skuCode: 'SANDBOX-NOKEYS-001' }, 409, 'NO_AVAILABLE_KEYS'],
      [{ skuCode: 'SANDBOX-LOWSTOCK-001', quantity: 4 }, 409, 'NO_AVAILABLE_KEYS'],
      [{ skuCode: 'SANDBOX-PRICE-MIS-001' }, 422, 'CATALOG_PRICE_MISMATCH'],
      [{ skuCode: 'SANDBOX-TERR-BLOCK-001' }, 422, 'TERRITORY_EXCLUDED_FOR_RELEASE'],
      [{ skuCode: 'SANDBOX-NOALLOC-001' }, 404, 'NOT_FOUND'],
      [{ skuCode: 'SANDBOX-NOSHARE-001' }, 404, 'NOT_FOUND'],
      [{ skuCode: 'SANDBOX-LIFECYCLE-001' }, 404, 'PRODUCT_NOT_SELLABLE'],
      [{ skuCode: 'SANDBOX-PREORDER-001' }, 422, 'PRODUCT_NOT_SELLABLE'],
      [
        { skuCode: 'SANDBOX-WHOLESALE-MIS-001', expectedWholesaleUnitPriceCents: 2000 },
        422,
        'WHOLESALE_PRICE_MISMATCH',
      ],
      [{ expectedUnitPriceCents: 1998 }, 422, 'CATALOG_PRICE_MISMATCH'],
    ];
    for (const [overrides, status, code] of cases) {
      const result = await post(t, seller, '/orders', alwaysOrder(overrides));
      expectApiError(result, status, code);
    }
    expect(await ordersOf(t, seller.company.id)).toHaveLength(0);
  });

  it('fulfils the low-stock, euro and wholesale fixtures at their edges', async () => {
    const seller = await makeSeller(t);
    const low = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-LOWSTOCK-001', quantity: 3 }),
    );
    expect(low.body.data.keys).toHaveLength(3);
    const euro = await post(t, seller, '/orders', {
      ...alwaysOrder({ skuCode: 'SANDBOX-EUR1-001', expectedUnitPriceCents: 100 }),
      integrationOrderContext: {
        ...US_SALE,
        salesCountryCode: 'DE',
        currencyCode: 'EUR',
        salesPriceGrossMinor: 119,
        salesTaxRatePercent: 19,
      },
    });
    expect(euro.status, JSON.stringify(euro.body)).toBe(200);
    expect(euro.body.data).toMatchObject({ unitPriceCents: 100, currencyCode: 'EUR', countryCode: 'DE' });
    const wholesale = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-WHOLESALE-MIS-001', expectedWholesaleUnitPriceCents: 2500 }),
    );
    expect(wholesale.status).toBe(200);
  });

  it('refuses missing declarations before any key moves: tax, then sales country, then channel', async () => {
    const seller = await makeSeller(t);
    const without = (omit: string[]) =>
      alwaysOrder({
        integrationOrderContext: Object.fromEntries(
          Object.entries(US_SALE).filter(([k]) => !omit.includes(k)),
        ),
      });
    expectApiError(
      await post(t, seller, '/orders', without(['salesTaxRatePercent'])),
      422,
      'TAX_DECLARATION_REQUIRED',
    );
    expectApiError(
      await post(t, seller, '/orders', without(['salesCountryCode'])),
      422,
      'SALES_COUNTRY_REQUIRED',
    );
    expectApiError(
      await post(t, seller, '/orders', without(['salesChannel'])),
      422,
      'SALES_CHANNEL_REQUIRED',
    );
    const market = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ integrationOrderContext: { ...US_SALE, salesChannel: 'marketplace:gamesplace' } }),
    );
    expectApiError(market, 422, 'SALES_CHANNEL_NOT_PERMITTED');
    expect(market.body.details.permittedChannelList).toEqual(['web', 'mobile_app', 'partner_embed']);
    expectApiError(
      await post(t, seller, '/orders', alwaysOrder({ expectedUnitPriceCents: undefined })),
      422,
      'EXPECTED_UNIT_PRICE_REQUIRED',
    );
    expect(await ordersOf(t, seller.company.id)).toHaveLength(0);
  });

  it('refuses magic SKUs to production keys', async () => {
    const seller = await makeSeller(t, { environment: 'production' });
    const result = await post(t, seller, '/orders', alwaysOrder(), { 'x-forwarded-for': '8.8.8.8' });
    expectApiError(result, 422, 'SANDBOX_MAGIC_VALUE_REJECTED');
  });

  it('answers simulated failures with their live codes, pulls nothing, and lets the same key succeed', async () => {
    const seller = await makeSeller(t);
    for (const simulate of [
      'key_decrypt_failed',
      'billing_record_failed',
      'hot_path_timeout',
      'internal_error',
    ]) {
      const body = alwaysOrder();
      const key = { 'idempotency-key': `sim-${simulate}-${ref()}` };
      const failed = await post(t, seller, '/orders', body, {
        ...key,
        'x-service-sandbox-simulate': simulate,
      });
      expect(failed.status, simulate).toBeGreaterThanOrEqual(500);
      expect(await ordersOf(t, seller.company.id)).toHaveLength(0);
      const retried = await post(t, seller, '/orders', body, key);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      await t.ctx.db.deleteFrom('sale_lines').where('seller_company_id', '=', seller.company.id).execute();
      await t.ctx.db
        .deleteFrom('activity_entries')
        .where('seller_company_id', '=', seller.company.id)
        .execute();
      await t.ctx.db.deleteFrom('game_keys').where('order_id', '=', retried.body.data.orderId).execute();
      await t.ctx.db.deleteFrom('orders').where('seller_company_id', '=', seller.company.id).execute();
    }
  });

  it('delays the signed events of webhook_delay_30s and still answers 200', async () => {
    const seller = await makeSeller(t);
    const result = await post(t, seller, '/orders', alwaysOrder(), {
      'x-service-sandbox-simulate': 'webhook_delay_30s',
    });
    expect(result.status).toBe(200);
    const [event] = await eventsFor(t, seller.company.id, 'order.fulfilled');
    expect(Number(event!.deliver_after) - Number(event!.created_at_us) / 1000).toBeGreaterThanOrEqual(29_000);
  });

  it('stores idempotent replays of key-bearing responses sealed', async () => {
    const seller = await makeSeller(t);
    const key = { 'idempotency-key': `seal-${ref()}` };
    const body = alwaysOrder();
    const first = await post(t, seller, '/orders', body, key);
    const replay = await post(t, seller, '/orders', body, key);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.body.data.keys).toEqual(first.body.data.keys);
    const rows = await t.ctx.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('company_id', '=', seller.company.id)
      .execute();
    expect(rows[0]?.response_sealed).toBe(1);
    expect(JSON.stringify(rows)).not.toContain(first.body.data.keys[0]);
  });
});

describe('GET /orders', () => {
  it('lists each order with its own key ids, pages included, read for the whole page at once', async () => {
    const seller = await makeSeller(t);
    const placed = [];
    for (const quantity of [1, 3, 2]) {
      const result = await post(t, seller, '/orders', alwaysOrder({ quantity }));
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      placed.push(result.body.data as { orderId: string; keyIds: string[] });
    }
    const listed = new Map<string, string[]>();
    let url: string | null = '/api/seller/v1/orders?limit=2';
    while (url) {
      const page = await t.app.inject({ method: 'GET', url, headers: seller.auth });
      expect(page.statusCode).toBe(200);
      const body = page.json() as {
        data: { id: string; keyIds: string[] }[];
        meta: { nextUrl: string | null };
      };
      for (const order of body.data) listed.set(order.id, order.keyIds);
      url = body.meta.nextUrl;
    }
    expect(listed.size).toBe(3);
    for (const order of placed) expect(listed.get(order.orderId)).toEqual([...order.keyIds].sort());
  });
});
