import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { ADMIN_TOKEN, ENGINE, useTestApp } from '../../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../../test/production.js';
import { useSecondApp } from '../../../../test/second-app.js';
import { pulledOn, recordStatements } from '../../../../test/stored.js';

const t = useTestApp();

/** A second app on the same database with its own caches, like a second process (PostgreSQL). */
const secondApp = useSecondApp(t);
afterEach(() => vi.restoreAllMocks());

/**
 * On PostgreSQL, whether the quote read the catalog version in its one statement with the live
 * reads (hot-reads.ts: preview), or on its own first (an order: every other read cached).
 */
const combined = (statements: string[]) => ({
  oneStatement: statements.some((q) => q.startsWith('select (select "version" from "catalog_version"')),
  versionAlone: statements.some((q) => q.startsWith('select "version" from "catalog_version"')),
});
const VERSION_ALONE = { oneStatement: false, versionAlone: true };

type Scenario = Awaited<ReturnType<typeof productionScenario>>;
const order = (app: FastifyInstance, s: Scenario, expectedUnitPriceCents: number) =>
  app.inject({
    method: 'POST',
    url: '/api/seller/v1/orders',
    headers: s.seller.auth,
    payload: productionOrder(s, { expectedUnitPriceCents }),
  });
const HOUR = 3_600_000;
/** A public 10% promotion on the scenario's SKU from `startsAt` to `endsAt`. */
const promote = (s: Scenario, startsAt: number, endsAt: number) =>
  t.ctx.db
    .insertInto('promotions')
    .values({
      id: `promo-${s.skuCode}-${startsAt}`,
      publisher_company_id: s.publisherId,
      environment: 'production',
      source_type: 'promotion',
      product_id: null,
      sku_id: s.skuId,
      seller_company_id: null,
      discount_percent: 10,
      requires_acceptance: 0,
      starts_at: startsAt,
      ends_at: endsAt,
      created_at: startsAt,
      updated_at: startsAt,
    })
    .execute();
const reprice = (s: Scenario, listPriceCents: number) =>
  admin(
    t,
    'PUT',
    `/releases/${s.releaseId}/prices`,
    { countryCode: 'US', currencyCode: 'USD', listPriceCents },
    200,
  );

describe('checkout reads cached under the catalog version', () => {
  it('never misses a price changed in the same millisecond as the order', async () => {
    const s = await productionScenario(t);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    const frozen = t.ctx.clock.now();
    vi.spyOn(t.ctx.clock, 'now').mockReturnValue(frozen);

    await reprice(s, 6499);
    const statements = recordStatements(t);
    const stale = await order(t.app, s, 5999);
    expect(stale.json()).toMatchObject({ code: 'CATALOG_PRICE_MISMATCH' });
    expect(stale.json().details).toMatchObject({ unitPriceCents: 6499 });
    // The order read the catalog version alone, and nothing else: the rest is cached under it.
    if (ENGINE === 'postgres') expect(combined(statements())).toEqual(VERSION_ALONE);
    expect((await order(t.app, s, 6499)).statusCode).toBe(200);
    if (ENGINE === 'postgres') expect(combined(statements())).toEqual(VERSION_ALONE);
  });

  it('refuses an order on an allocation paused since the last order', async () => {
    const s = await productionScenario(t);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'paused' });
    const statements = recordStatements(t);
    const refused = await order(t.app, s, 5999);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'ALLOCATION_PAUSED' } });
    // Pausing moved the catalog version (migration 0017): the grants were read again under it.
    if (ENGINE === 'postgres') expect(combined(statements())).toEqual(VERSION_ALONE);
    const stored = await t.ctx.db
      .selectFrom('allocations')
      .select(['status', 'quantity_pulled'])
      .where('id', '=', s.allocationId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'paused', quantity_pulled: 1 });
  });

  it('sees a share withdrawn since the last order', async () => {
    const s = await productionScenario(t);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    await admin(t, 'POST', `/connections/${s.connectionId}/shares`, { skuId: s.skuId, active: false }, 200);
    const refused = await order(t.app, s, 5999);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('NOT_FOUND');
  });

  it('claims from a dedicated pool created since the last order', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    const first = await order(t.app, s, 5999);
    expect(first.json().data.keys[0]).toMatch(/^PROD-/);
    const dedicated = await admin(t, 'POST', '/pools', { kind: 'dedicated', allocationId: s.allocationId });
    const imported = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/pools/${dedicated.id}/keys`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
      payload: 'DEDICATED-1\n',
    });
    expect(imported.statusCode, imported.body).toBeLessThan(300);
    const second = await order(t.app, s, 5999);
    expect(second.json().data.keys).toEqual(['DEDICATED-1']);
  });

  it('prices the next order with a promotion published since the last', async () => {
    const s = await productionScenario(t);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    const now = t.ctx.clock.now();
    await promote(s, now - HOUR, now + HOUR);
    const stale = await order(t.app, s, 5999);
    expect(stale.json()).toMatchObject({ code: 'CATALOG_PRICE_MISMATCH' });
    const promoted = stale.json().details.unitPriceCents as number;
    expect(promoted).toBeLessThan(5999);
    expect((await order(t.app, s, promoted)).statusCode).toBe(200);
  });

  it('prices an order with a promotion that started since the last, with nothing else changed', async () => {
    const s = await productionScenario(t);
    const now = t.ctx.clock.now();
    await promote(s, now + 60_000, now + HOUR);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    vi.spyOn(t.ctx.clock, 'now').mockReturnValue(now + 60_000);
    const stale = await order(t.app, s, 5999);
    expect(stale.json()).toMatchObject({ code: 'CATALOG_PRICE_MISMATCH' });
    expect((await order(t.app, s, stale.json().details.unitPriceCents)).statusCode).toBe(200);
    // And the full price again once it ended.
    vi.spyOn(t.ctx.clock, 'now').mockReturnValue(now + HOUR);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
  });

  it('counts a hold placed since the last order against the next', async () => {
    const s = await productionScenario(t, { quantityLimit: 2 });
    await admin(t, 'PATCH', `/companies/${s.sellerId}`, { checkoutHoldEnabled: true });
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    const { skuCode, quantity, integrationOrderContext } = productionOrder(s);
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/seller/v1/orders/hold',
      headers: { ...s.seller.auth, 'idempotency-key': `hold-${s.skuCode}` },
      payload: {
        skuCode,
        quantity,
        countryCode: 'US',
        orderReference: `held-${s.skuCode}`,
        integrationOrderContext,
      },
    });
    expect(hold.statusCode, hold.body).toBe(200);
    // The grant as cached still says nothing was promised: the order proves otherwise.
    const refused = await order(t.app, s, 5999);
    expect(refused.json(), refused.body).toMatchObject({ code: 'NO_AVAILABLE_KEYS' });
    expect(await pulledOn(t, s.allocationId)).toBe(1);
  });

  it.runIf(ENGINE === 'postgres')('another process sees the change on its next request', async () => {
    const s = await productionScenario(t);
    expect((await order(secondApp()!, s, 5999)).statusCode).toBe(200);
    await reprice(s, 7499);
    expect((await order(secondApp()!, s, 5999)).json()).toMatchObject({ code: 'CATALOG_PRICE_MISMATCH' });
    expect((await order(secondApp()!, s, 7499)).statusCode).toBe(200);
  });
});
