import { describe, expect, it } from 'vitest';
import { admin, buildCatalog, changesFor, eventsFor, sellability } from '../admin.js';
import { makeKey } from '../factories.js';
import { useTestApp } from '../harness.js';
import { call } from '../route-contract.js';

const t = useTestApp();

describe('catalog access and agreements', () => {
  it('per-SKU sharing: unsharing the last SKU removes the product', async () => {
    const c = await buildCatalog(t);
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId, active: false }, 200);
    expect((await changesFor(t, c.sellerId)).map((ch) => ch.type)).toEqual(['added', 'removed']);
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).toContain('NO_SKU_SHARE');
  });

  it('whole-catalog sharing: unsharing a SKU keeps the product visible and records updated (availability)', async () => {
    const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId, active: false }, 200);
    const changes = await changesFor(t, c.sellerId);
    expect(changes.at(-1)).toEqual({
      productId: c.productId,
      type: 'updated',
      changedFields: ['availability'],
    });
    expect(changes.some((ch) => ch.type === 'removed')).toBe(false);
  });

  it('suspending shares fails the share gate and hides per-SKU products', async () => {
    const c = await buildCatalog(t);
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    const connection = await admin(t, 'PATCH', `/connections/${c.connectionId}`, { sharesSuspended: true });
    expect(connection.sharesSuspended).toBe(true);
    expect((await changesFor(t, c.sellerId)).at(-1)).toMatchObject({ type: 'removed' });
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).toContain('NO_SKU_SHARE');
  });

  it('supersede and amendments announce contract events', async () => {
    const c = await buildCatalog(t);
    const first = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
      kind: 'bma',
      bmaType: 'api',
    });
    const second = await admin(t, 'POST', `/agreements/${first.id}/supersede`, {
      consumerGeoPolicy: 'refuse',
    });
    expect(second.status).toBe('active');
    expect((await eventsFor(t, c.sellerId, 'contract.superseded')).map((e) => e.data)).toEqual([
      { contractId: first.id, supersededBy: second.id },
    ]);
    const amendment = await admin(t, 'POST', `/agreements/${second.id}/amendments`, {
      description: 'Adds GBP',
    });
    await admin(t, 'POST', `/amendments/${amendment.id}/accept`, undefined, 200);
    expect((await eventsFor(t, c.sellerId, 'contract.amendment_accepted')).map((e) => e.data)).toEqual([
      { contractId: second.id, amendmentId: amendment.id },
    ]);
    const stored = await t.ctx.db
      .selectFrom('agreements')
      .select(['status', 'superseded_by'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'superseded', superseded_by: second.id });
  });

  it('whoami reflects the agreements in force', async () => {
    const c = await buildCatalog(t);
    const key = await makeKey(t, c.sellerId, { environment: 'production' });
    const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
    expect(
      (await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers })).body.data.hasActiveBma,
    ).toBe(false);
    const agreement = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
      kind: 'bma',
      bmaType: 'api',
      currencyMode: 'custom',
      currencyDetail: { EUR: ['DE'], CHF: ['CH'] },
      permittedChannels: 'own_storefront_plus_named_marketplaces',
      marketplaceSlugs: ['example-market'],
      consumerGeoPolicy: 'refuse',
      regionLocks: ['RU'],
    });
    await admin(t, 'PUT', '/reference-rates/EUR', { unitsPerUsd: '0.92' });
    const data = (await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers })).body.data;
    expect(data.hasActiveBma).toBe(true);
    expect(data.permittedCurrenciesByPublisher).toEqual([
      expect.objectContaining({
        publisherCompanyId: c.publisherId,
        contractId: agreement.id,
        currencyMode: 'custom',
        currencyDetail: { EUR: ['DE'], CHF: ['CH'] },
        permittedChannels: 'own_storefront_plus_named_marketplaces',
        marketplaceSlugs: ['example-market'],
      }),
    ]);
    expect(data.geoPolicyByPublisher).toEqual([
      expect.objectContaining({ consumerGeoPolicy: 'refuse', regionLocks: ['RU'] }),
    ]);
    expect(data.integrationReadiness.blockers).toContainEqual({
      code: 'REGION_LOCKED',
      countries: ['RU'],
      action: 'review_publisher_region_locks',
    });
    expect(data.footprint.countriesWithoutReferenceRate).toEqual(['CH']);
  });

  it('announces low stock and depletion when the publisher lowers a grant', async () => {
    const c = await buildCatalog(t);
    const allocation = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
      lowStockThreshold: 3,
    });
    await admin(t, 'PATCH', `/allocations/${allocation.id}`, { quantityLimit: 2 });
    await admin(t, 'PATCH', `/allocations/${allocation.id}`, { quantityLimit: 0 });
    expect((await eventsFor(t, c.sellerId, 'allocation.low_stock')).map((e) => e.data)).toEqual([
      { allocationId: allocation.id, skuCode: c.skuCode, remaining: 2, threshold: 3 },
    ]);
    expect((await eventsFor(t, c.sellerId, 'allocation.depleted')).map((e) => e.data)).toEqual([
      { allocationId: allocation.id, skuCode: c.skuCode, remaining: 0 },
    ]);
  });

  it('refuses a revoked grant coming back', async () => {
    const c = await buildCatalog(t);
    const allocation = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
    });
    await admin(t, 'PATCH', `/allocations/${allocation.id}`, { status: 'revoked' });
    const result = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/allocations/${allocation.id}`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      payload: { status: 'active' },
    });
    expect(result.statusCode).toBe(422);
    expect((await eventsFor(t, c.sellerId, 'allocation.updated')).at(-1)?.data).toMatchObject({
      reason: 'revoked',
    });
  });
});
