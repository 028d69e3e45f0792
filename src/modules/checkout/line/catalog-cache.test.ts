import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { ADMIN_TOKEN, ENGINE, useTestApp } from '../../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../../test/production.js';
import { useSecondApp } from '../../../../test/second-app.js';

const t = useTestApp();

/** A second app on the same database with its own caches, like a second process (PostgreSQL). */
const secondApp = useSecondApp(t);
afterEach(() => vi.restoreAllMocks());

/** The SQL of every query the test app's pool runs from now on (outside transactions). */
function recordStatements(): () => string[] {
  const spy = vi.spyOn(t.ctx.db.getExecutor(), 'executeQuery');
  return () => spy.mock.calls.map(([query]) => query.sql);
}

/**
 * On PostgreSQL, whether the quote read the catalog version in its one statement with the live
 * reads (hot-reads.ts), guessing the SKU from the cache, rather than on its own first.
 */
const combined = (statements: string[]) => ({
  oneStatement: statements.some((q) => q.startsWith('select (select "version" from "catalog_version"')),
  versionAlone: statements.some((q) => q.startsWith('select "version" from "catalog_version"')),
});
const COMBINED = { oneStatement: true, versionAlone: false };

type Scenario = Awaited<ReturnType<typeof productionScenario>>;
const order = (app: FastifyInstance, s: Scenario, expectedUnitPriceCents: number) =>
  app.inject({
    method: 'POST',
    url: '/api/seller/v1/orders',
    headers: s.seller.auth,
    payload: productionOrder(s, { expectedUnitPriceCents }),
  });
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
    const statements = recordStatements();
    const stale = await order(t.app, s, 5999);
    expect(stale.json()).toMatchObject({ code: 'CATALOG_PRICE_MISMATCH' });
    expect(stale.json().details).toMatchObject({ unitPriceCents: 6499 });
    // On PostgreSQL the refused order guessed the SKU of the old version and still saw the price.
    if (ENGINE === 'postgres') expect(combined(statements())).toEqual(COMBINED);
    expect((await order(t.app, s, 6499)).statusCode).toBe(200);
    if (ENGINE === 'postgres') expect(combined(statements())).toEqual(COMBINED);
  });

  it('refuses an order on an allocation paused since the last order (never cached)', async () => {
    const s = await productionScenario(t);
    expect((await order(t.app, s, 5999)).statusCode).toBe(200);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'paused' });
    const statements = recordStatements();
    const refused = await order(t.app, s, 5999);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'ALLOCATION_PAUSED' } });
    // Pausing moves no catalog version: the refusal came from the one statement's allocations.
    if (ENGINE === 'postgres') expect(combined(statements())).toEqual(COMBINED);
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

  it.runIf(ENGINE === 'postgres')('another process sees the change on its next request', async () => {
    const s = await productionScenario(t);
    expect((await order(secondApp()!, s, 5999)).statusCode).toBe(200);
    await reprice(s, 7499);
    expect((await order(secondApp()!, s, 5999)).json()).toMatchObject({ code: 'CATALOG_PRICE_MISMATCH' });
    expect((await order(secondApp()!, s, 7499)).statusCode).toBe(200);
  });
});
