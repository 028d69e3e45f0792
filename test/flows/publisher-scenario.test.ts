import { describe, expect, it } from 'vitest';
import { admin, buildCatalog, changesFor, eventsFor, sellability } from '../admin.js';
import { useTestApp } from '../harness.js';

const t = useTestApp();

describe('a production scenario built through /admin/v1 alone', () => {
  it('takes a SKU from not sellable to sellable, gate by gate, and announces each flip', async () => {
    const c = await buildCatalog(t);
    const agreement = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
      kind: 'bma',
      bmaType: 'api',
    });
    expect(await eventsFor(t, c.sellerId, 'contract.activated')).toMatchObject([
      { data: { contractId: agreement.id, partnerCompanyId: c.publisherId } },
    ]);

    expect(await sellability(t, c.sellerId, c.skuId)).toMatchObject({
      sellable: false,
      readinessBlockers: ['NO_SKU_SHARE', 'NO_ALLOCATION', 'NO_TERRITORY_PRICING'],
      recommendedAction: 'request_publisher_sku_share',
    });

    await admin(
      t,
      'PUT',
      `/releases/${c.releaseId}/prices`,
      { countryCode: 'US', currencyCode: 'USD', listPriceCents: 5999 },
      200,
    );
    const pool = await admin(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId });
    const imported = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/pools/${pool.id}/keys`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'text/plain' },
      payload: 'AAAA-BBBB-0001\nAAAA-BBBB-0002\nAAAA-BBBB-0001\n\nbad\u0001key\nAAAA-BBBB-0003\n',
    });
    expect(imported.json().data).toMatchObject({
      imported: 3,
      duplicates: 1,
      rejected: 1,
      rejectedLines: [{ line: 5 }],
    });

    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    expect(await changesFor(t, c.sellerId)).toContainEqual({
      productId: c.productId,
      type: 'added',
      changedFields: [],
    });
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).toEqual(['NO_ALLOCATION']);

    const allocation = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 10,
      pricePerKeyCents: 3000,
      currencyCode: 'USD',
      currencyExponent: 2,
      lowStockThreshold: 3,
    });
    expect(allocation.readableId).toMatch(/^alloc_/);
    expect(await sellability(t, c.sellerId, c.skuId)).toMatchObject({
      sellable: true,
      readinessBlockers: [],
      recommendedAction: null,
    });
    expect((await eventsFor(t, c.sellerId, 'sku.sellability_changed')).map((e) => e.data)).toEqual([
      { skuId: c.skuId, skuCode: c.skuCode, productId: c.productId, sellable: true, reasons: [] },
    ]);

    await admin(t, 'PATCH', `/allocations/${allocation.id}`, { status: 'paused' });
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).toEqual(['ALLOCATION_PAUSED']);
    const updates = await eventsFor(t, c.sellerId, 'allocation.updated');
    expect(updates.at(-1)?.data).toEqual({
      allocationId: allocation.id,
      skuCode: c.skuCode,
      remaining: 10,
      reason: 'paused',
    });
    const flips = await eventsFor(t, c.sellerId, 'sku.sellability_changed');
    expect(flips.at(-1)?.data).toMatchObject({ sellable: false, reasons: ['ALLOCATION_PAUSED'] });
  });

  it('keeps no plaintext game key anywhere in the database', async () => {
    const c = await buildCatalog(t);
    const pool = await admin(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId });
    const keys = ['PLAIN-SECRET-KEY-111', 'PLAIN-SECRET-KEY-222'];
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/pools/${pool.id}/keys`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'text/plain' },
      payload: keys.join('\n'),
    });
    const rows = await t.ctx.db.selectFrom('game_keys').selectAll().where('pool_id', '=', pool.id).execute();
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    for (const key of keys) expect(dump).not.toContain(key);
    expect(rows.map((r) => t.ctx.secrets!.open(r.ciphertext)).sort()).toEqual(keys);
  });
});
