import { describe, expect, it } from 'vitest';
import { archiveDueProducts } from '../../src/modules/catalog/products.service.js';
import { visibleProductIds } from '../../src/modules/catalog/visibility.repo.js';
import { admin, buildCatalog, changesFor, eventsFor, sellability } from '../admin.js';
import { useTestApp } from '../harness.js';

const t = useTestApp();
const visibleIds = async (sellerId: string) =>
  visibleProductIds(t.ctx.db, sellerId, 'production', t.ctx.clock.now());

async function sharedCatalog() {
  const c = await buildCatalog(t);
  await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
  return c;
}

describe('what sellers observe when the publisher edits the catalog', () => {
  it('metadata edits: updated (metadata) change, product.updated, a newer updatedAt', async () => {
    const c = await sharedCatalog();
    const before = await t.ctx.db
      .selectFrom('products')
      .select('updated_at')
      .where('id', '=', c.productId)
      .executeTakeFirstOrThrow();
    t.ctx.testClock!.advance(5);
    await admin(t, 'PATCH', `/products/${c.productId}`, { name: 'Star Game Deluxe' });
    const after = await t.ctx.db
      .selectFrom('products')
      .select('updated_at')
      .where('id', '=', c.productId)
      .executeTakeFirstOrThrow();
    expect(after.updated_at).toBeGreaterThan(before.updated_at);
    expect((await changesFor(t, c.sellerId)).at(-1)).toEqual({
      productId: c.productId,
      type: 'updated',
      changedFields: ['metadata'],
    });
    expect((await eventsFor(t, c.sellerId, 'product.updated')).at(-1)?.data).toEqual({
      productId: c.productId,
      updatedAt: new Date(after.updated_at).toISOString(),
    });
  });

  it('an immediate archive: removed change and product.delisted only', async () => {
    const c = await sharedCatalog();
    await admin(t, 'PATCH', `/products/${c.productId}`, { isArchived: true });
    expect((await changesFor(t, c.sellerId)).at(-1)).toEqual({
      productId: c.productId,
      type: 'removed',
      changedFields: [],
    });
    expect(await eventsFor(t, c.sellerId, 'product.delisted')).toHaveLength(1);
    expect(await eventsFor(t, c.sellerId, 'product.delisting_scheduled')).toHaveLength(0);
  });

  it('a future archive: product.delisting_scheduled with effectiveAt, product still visible', async () => {
    const c = await sharedCatalog();
    const effectiveAt = new Date(t.ctx.clock.now() + 7 * 86_400_000).toISOString();
    await admin(t, 'PATCH', `/products/${c.productId}`, { archiveAt: effectiveAt });
    expect((await eventsFor(t, c.sellerId, 'product.delisting_scheduled')).map((e) => e.data)).toEqual([
      { productId: c.productId, effectiveAt },
    ]);
    expect((await changesFor(t, c.sellerId)).some((ch) => ch.type === 'removed')).toBe(false);
  });

  it('a scheduled archive takes effect when due: one removed change and one product.delisted, however many sweep', async () => {
    const c = await sharedCatalog();
    const effectiveAt = t.ctx.clock.now() + 3_600_000;
    await admin(t, 'PATCH', `/products/${c.productId}`, { archiveAt: new Date(effectiveAt).toISOString() });
    expect(await archiveDueProducts(t.ctx)).toBe(0);
    t.ctx.testClock!.advance(3_600);
    expect(await visibleIds(c.sellerId)).toContain(c.productId);
    const swept = await Promise.all([
      archiveDueProducts(t.ctx, 1),
      archiveDueProducts(t.ctx),
      archiveDueProducts(t.ctx),
    ]);
    expect(swept.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await visibleIds(c.sellerId)).not.toContain(c.productId);
    expect((await changesFor(t, c.sellerId)).filter((ch) => ch.type === 'removed')).toEqual([
      { productId: c.productId, type: 'removed', changedFields: [] },
    ]);
    expect(await eventsFor(t, c.sellerId, 'product.delisted')).toHaveLength(1);
    const stored = await t.ctx.db
      .selectFrom('products')
      .select(['is_archived', 'archive_at'])
      .where('id', '=', c.productId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ is_archived: 1, archive_at: effectiveAt });
    expect(await archiveDueProducts(t.ctx)).toBe(0);
  });

  it('the legacy status archived delists as isArchived does', async () => {
    const c = await sharedCatalog();
    await admin(t, 'PATCH', `/products/${c.productId}`, { status: 'archived' });
    expect(await visibleIds(c.sellerId)).not.toContain(c.productId);
    expect((await changesFor(t, c.sellerId)).at(-1)).toEqual({
      productId: c.productId,
      type: 'removed',
      changedFields: [],
    });
    expect(await eventsFor(t, c.sellerId, 'product.delisted')).toHaveLength(1);
  });

  it('release lifecycle: product.announced, release.available, release.date_changed with SKU ids', async () => {
    const c = await sharedCatalog();
    const release = await admin(t, 'POST', `/products/${c.productId}/releases`, {
      name: 'Deluxe',
      state: 'planned',
      releaseDate: '2027-03-01T00:00:00.000Z',
    });
    const sku = await admin(t, 'POST', `/releases/${release.id}/skus`, {
      code: `DLX-${release.id.slice(-6)}`,
      platform: 'steam',
    });
    await admin(t, 'PATCH', `/releases/${release.id}`, { state: 'announced' });
    await admin(t, 'PATCH', `/releases/${release.id}`, { releaseDate: '2027-04-01T00:00:00.000Z' });
    await admin(t, 'PATCH', `/releases/${release.id}`, { state: 'available' });
    expect((await eventsFor(t, c.sellerId, 'product.announced')).map((e) => e.data)).toEqual([
      { productId: c.productId, releaseId: release.id },
    ]);
    expect((await eventsFor(t, c.sellerId, 'release.available')).map((e) => e.data)).toEqual([
      { productId: c.productId, releaseId: release.id },
    ]);
    expect((await eventsFor(t, c.sellerId, 'release.date_changed')).map((e) => e.data)).toEqual([
      {
        productId: c.productId,
        releaseId: release.id,
        skuIds: [sku.id],
        oldDate: '2027-03-01T00:00:00.000Z',
        newDate: '2027-04-01T00:00:00.000Z',
      },
    ]);
  });

  it('refuses to move a release backwards', async () => {
    const c = await sharedCatalog();
    const result = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/releases/${c.releaseId}`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      payload: { state: 'planned' },
    });
    expect(result.statusCode).toBe(422);
    expect(result.json().code).toBe('VALIDATION_FAILED');
  });

  it('price edits: one sku.pricing_updated per SKU and country with previous and new pricing', async () => {
    const c = await sharedCatalog();
    const second = await admin(t, 'POST', `/releases/${c.releaseId}/skus`, {
      code: `${c.skuCode}-B`,
      platform: 'epic',
    });
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'DE',
      currencyCode: 'EUR',
      listPriceCents: 4999,
    });
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'DE',
      currencyCode: 'EUR',
      listPriceCents: 3999,
    });
    const events = (await eventsFor(t, c.sellerId, 'sku.pricing_updated')).map((e) => e.data);
    expect(events).toHaveLength(4);
    const last = events.filter((e) => e.unitPriceCents === 3999);
    expect(last.map((e) => e.skuCode).sort()).toEqual([c.skuCode, second.code].sort());
    expect(last[0]).toMatchObject({
      countryCode: 'DE',
      currencyCode: 'EUR',
      previousPricing: { priceCents: 4999, currencyCode: 'EUR' },
      newPricing: { priceCents: 3999, currencyCode: 'EUR' },
    });
    expect((await changesFor(t, c.sellerId)).at(-1)).toMatchObject({
      type: 'updated',
      changedFields: ['pricing'],
    });
  });

  it('a scheduled price carries a future effectiveAt and does not count before it', async () => {
    const c = await sharedCatalog();
    const effectiveAt = new Date(t.ctx.clock.now() + 3_600_000).toISOString();
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 999,
      effectiveAt,
    });
    expect((await eventsFor(t, c.sellerId, 'sku.pricing_updated')).at(-1)?.data).toMatchObject({
      effectiveAt,
      previousPricing: null,
    });
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).toContain('NO_TERRITORY_PRICING');
    t.ctx.testClock!.advance(3601);
    expect((await sellability(t, c.sellerId, c.skuId)).readinessBlockers).not.toContain(
      'NO_TERRITORY_PRICING',
    );
  });

  it('a lifecycle edit flips sellability and announces it', async () => {
    const c = await sharedCatalog();
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 1999,
    });
    await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 5,
    });
    expect((await sellability(t, c.sellerId, c.skuId)).sellable).toBe(true);
    await admin(t, 'PATCH', `/products/${c.productId}`, { tradingState: 'suspended' });
    expect(await sellability(t, c.sellerId, c.skuId)).toMatchObject({
      sellable: false,
      readinessBlockers: ['LIFECYCLE_NOT_LIVE'],
      recommendedAction: 'wait_for_release',
    });
    expect((await eventsFor(t, c.sellerId, 'sku.sellability_changed')).at(-1)?.data).toMatchObject({
      sellable: false,
      reasons: ['LIFECYCLE_NOT_LIVE'],
    });
  });

  it('tells nobody about a draft product', async () => {
    const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
    const draft = await admin(t, 'POST', '/products', {
      publisherCompanyId: c.publisherId,
      name: 'Secret',
      slug: `secret-${c.productId.slice(-8)}`,
    });
    expect((await changesFor(t, c.sellerId)).some((ch) => ch.productId === draft.id)).toBe(false);
    await admin(t, 'PATCH', `/products/${draft.id}`, { status: 'active' });
    expect((await changesFor(t, c.sellerId)).filter((ch) => ch.productId === draft.id)).toEqual([
      { productId: draft.id, type: 'added', changedFields: [] },
    ]);
  });
});
