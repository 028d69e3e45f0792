import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { admin, buildCatalog } from '../../../test/admin.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const v1 = (path: string) => `/api/seller/v1${path}`;

describeRouteContract('GET /products', t, {
  method: 'GET',
  url: () => v1('/products'),
  scopes: ['seller:products:read'],
  badInput: { url: v1('/products?limit=0') },
});
describeRouteContract('GET /products/{id}', t, {
  method: 'GET',
  url: () => v1('/products/0190a1b2-0000-7000-8000-000000000000'),
  scopes: ['seller:products:read'],
  badInput: { url: v1('/products/nope') },
});
describeRouteContract('GET /products/{id}/pricing', t, {
  method: 'GET',
  url: () => v1('/products/0190a1b2-0000-7000-8000-000000000000/pricing'),
  scopes: ['seller:products:read'],
  badInput: { url: v1('/products/0190a1b2-0000-7000-8000-000000000000/pricing?country=DEU') },
});
describeRouteContract('GET /catalog/checksum', t, {
  method: 'GET',
  url: () => v1('/catalog/checksum'),
  scopes: ['seller:products:read'],
  badInput: { url: v1('/catalog/checksum?partner=a&publisherCompanyId=b') },
});
describeRouteContract('GET /catalog/changes', t, {
  method: 'GET',
  url: () => v1('/catalog/changes'),
  scopes: ['seller:products:read'],
  badInput: { url: v1('/catalog/changes?limit=5001') },
});

/** A production seller with a whole-catalog connection and `count` live products. */
async function world(count: number) {
  const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
  const key = await makeKey(t, c.sellerId, { environment: 'production' });
  const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
  const ids = [c.productId];
  for (let i = 1; i < count; i++) {
    t.ctx.testClock!.advance(1);
    const p = await admin(t, 'POST', '/products', {
      publisherCompanyId: c.publisherId,
      name: `Game ${i}`,
      slug: `g-${c.productId.slice(-8)}-${i}`,
      status: 'active',
    });
    ids.push(p.id);
  }
  return { c, headers, ids };
}

describe('GET /products', () => {
  it('lists visible products newest first with every product field of the contract, localized', async () => {
    const { c, headers } = await world(1);
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 5999,
    });
    const result = await call(t, { method: 'GET', url: v1('/products?locale=de-AT'), headers });
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual([
      expect.objectContaining({
        id: c.productId,
        name: 'Star Game',
        shortDescription: 'Ein Spiel',
        status: 'active',
        launchPhase: 'released',
        tradingState: 'trading',
        isArchived: false,
        listPriceFromCents: 5999,
        platforms: [],
        regions: [],
        cover: null,
      }),
    ]);
    expect(result.body.meta.localePreference).toEqual(['de-AT', 'de', 'en']);
    const english = await call(t, {
      method: 'GET',
      url: v1('/products'),
      headers: { ...headers, 'accept-language': 'fr;q=0.9, de;q=0.5' },
    });
    expect(english.body.data[0].shortDescription).toBe('Ein Spiel');
    expect(english.body.meta.localePreference).toEqual(['fr', 'de', 'en']);
  });

  it('pages by opaque cursor and accepts a legacy id-only cursor', async () => {
    const { headers, ids } = await world(5);
    const first = await call(t, { method: 'GET', url: v1('/products?limit=2'), headers });
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    const second = await call(t, { method: 'GET', url: first.body.meta.nextUrl, headers });
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const legacy = await call(t, { method: 'GET', url: v1(`/products?limit=2&cursor=${ids[3]}`), headers });
    expect(legacy.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    // nextUrl carries the query: the next page keeps its search and expansions.
    const searched = await call(t, {
      method: 'GET',
      url: v1('/products?limit=2&q=game%20&expand=pricing'),
      headers,
    });
    const rest = await call(t, { method: 'GET', url: searched.body.meta.nextUrl, headers });
    expect(rest.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(rest.body.data[0].pricing).toBeDefined();
    expect(rest.body.meta).toMatchObject({ hasMore: false, nextUrl: null, warnings: [] });
  });

  it('filters by q, slug, partner alias, updatedSince and JSON filters; refuses unknown filter fields', async () => {
    const { c, headers, ids } = await world(3);
    const q = await call(t, { method: 'GET', url: v1('/products?q=GAME%202'), headers });
    expect(q.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2]]);
    const partner = c.publisherId.replaceAll('-', '');
    expect(
      (await call(t, { method: 'GET', url: v1(`/products?partner=${partner}`), headers })).body.data,
    ).toHaveLength(3);
    expect(
      (await call(t, { method: 'GET', url: v1(`/products?publisherCompanyId=${'0'.repeat(32)}`), headers }))
        .body.data,
    ).toHaveLength(0);
    const filters = encodeURIComponent(JSON.stringify([{ field: 'name', op: 'contains', value: 'star' }]));
    expect(
      (await call(t, { method: 'GET', url: v1(`/products?filters=${filters}`), headers })).body.data.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([ids[0]]);
    // Filters narrow the parameters, never replace them; a publisher id is taken in either form.
    const narrowed = encodeURIComponent(JSON.stringify([{ field: 'name', op: 'contains', value: '2' }]));
    expect(
      (
        await call(t, { method: 'GET', url: v1(`/products?q=game&filters=${narrowed}`), headers })
      ).body.data.map((p: { id: string }) => p.id),
    ).toEqual([ids[2]]);
    expect(
      (await call(t, { method: 'GET', url: v1(`/products?q=star&filters=${narrowed}`), headers })).body.data,
    ).toEqual([]);
    for (const form of [c.publisherId, partner]) {
      const byPublisher = encodeURIComponent(
        JSON.stringify([{ field: 'publisherCompanyId', op: 'eq', value: form }]),
      );
      expect(
        (await call(t, { method: 'GET', url: v1(`/products?filters=${byPublisher}`), headers })).body.data,
      ).toHaveLength(3);
    }
    const badDate = encodeURIComponent(
      JSON.stringify([{ field: 'updatedAt', op: 'gte', value: 'yesterday' }]),
    );
    const refusedDate = await call(t, { method: 'GET', url: v1(`/products?filters=${badDate}`), headers });
    expectApiError(refusedDate, 422, 'VALIDATION_FAILED');
    expect(refusedDate.body.details.issues[0].field).toBe('filters[0].value');
    // Values of the wrong JSON type, and field names the object prototype knows, are refused too.
    for (const [filter, field] of [
      [{ field: 'slug', op: 'eq', value: { a: 1 } }, 'filters[0].value'],
      [{ field: 'slug', op: 'eq', value: null }, 'filters[0].value'],
      [{ field: 'launchPhase', op: 'in', value: 'released' }, 'filters[0].value'],
      [{ field: 'launchPhase', op: 'in', value: [['released']] }, 'filters[0].value'],
      [{ field: 'updatedAt', op: 'gte', value: '1' }, 'filters[0].value'],
      [{ field: 'constructor', op: 'eq', value: 'x' }, 'filters[0].field'],
      [{ field: '__proto__', op: 'eq', value: 'x' }, 'filters[0].field'],
    ] as const) {
      const wrong = await call(t, {
        method: 'GET',
        url: v1(`/products?filters=${encodeURIComponent(JSON.stringify([filter]))}`),
        headers,
      });
      expectApiError(wrong, 422, 'VALIDATION_FAILED');
      expect(wrong.body.details.issues[0].field).toBe(field);
    }
    const unknown = encodeURIComponent(JSON.stringify([{ field: 'colour', op: 'eq', value: 'red' }]));
    const refused = await call(t, { method: 'GET', url: v1(`/products?filters=${unknown}`), headers });
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.details.issues[0].field).toBe('filters[0].field');
    const status = await call(t, { method: 'GET', url: v1('/products?status=archived'), headers });
    expect(status.body.data).toEqual([]);
    expect(status.body.meta.warnings[0].code).toBe('DEPRECATED_STATUS_FILTER');
  });

  it('expands availability and pricing', async () => {
    const { c, headers } = await world(1);
    await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 5999,
    });
    await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
      skuId: c.skuId,
      quantityLimit: 9,
      pricePerKeyCents: 3100,
    });
    const pool = await admin(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId });
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/pools/${pool.id}/keys`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'text/plain' },
      payload: 'E-1\nE-2\n',
    });
    const result = await call(t, {
      method: 'GET',
      url: v1('/products?expand=availability,pricing'),
      headers,
    });
    expect(result.body.data[0]).toMatchObject({
      availability: { available: 2, allocationRemaining: 9, inventoryAvailable: 2, skuCount: 1 },
      pricing: { wholesaleFromCents: 3100, listPriceFromCents: 5999 },
    });
  });

  it('shows the sandbox catalog without SANDBOX-NOSHARE-001', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'GET', url: v1('/products?limit=100'), headers: seller.auth });
    const slugs = result.body.data.map((p: { slug: string }) => p.slug);
    expect(slugs).toContain('sandbox-always');
    expect(slugs).not.toContain('sandbox-no-share');
  });
});

describe('GET /products/{id} and /pricing', () => {
  it('returns editions, releases, SKUs, pricing and only visible related products', async () => {
    const { c, headers, ids } = await world(2);
    await admin(t, 'POST', `/products/${c.productId}/editions`, { name: 'Deluxe' });
    await admin(t, 'PUT', `/releases/${c.releaseId}/prices`, {
      countryCode: 'DE',
      currencyCode: 'EUR',
      listPriceCents: 4999,
    });
    await admin(t, 'POST', `/products/${c.productId}/relations`, {
      type: 'includes',
      targetProductId: ids[1],
    });
    const hidden = await admin(t, 'POST', '/products', {
      publisherCompanyId: c.publisherId,
      name: 'Draft',
      slug: `draft-${c.productId.slice(-8)}`,
    });
    await admin(t, 'POST', `/products/${c.productId}/relations`, {
      type: 'requires',
      targetProductId: hidden.id,
    });
    const result = await call(t, { method: 'GET', url: v1(`/products/${c.productId}`), headers });
    expect(result.body.relatedProducts).toEqual([{ type: 'includes', productId: ids[1] }]);
    expect(result.body.data.editions).toEqual([{ id: expect.any(String), name: 'Deluxe' }]);
    expect(result.body.data.releases[0]).toMatchObject({
      id: c.releaseId,
      state: 'available',
      skus: [{ id: c.skuId, code: c.skuCode, activation: { type: 'worldwide', countries: null } }],
    });
    expect(result.body.data.pricing).toEqual([
      expect.objectContaining({
        releaseId: c.releaseId,
        countryCode: 'DE',
        currencyCode: 'EUR',
        listPriceCents: 4999,
      }),
    ]);
    const base = await call(t, { method: 'GET', url: v1(`/products/${c.productId}?expand=base`), headers });
    expect(base.body.data).not.toHaveProperty('releases');
    expectApiError(
      await call(t, { method: 'GET', url: v1(`/products/${hidden.id}`), headers }),
      404,
      'NOT_FOUND',
    );
    const pricing = await call(t, {
      method: 'GET',
      url: v1(`/products/${c.productId}/pricing?country=de,fr&expand=product`),
      headers,
    });
    expect(pricing.body.data).toEqual([
      {
        releaseId: c.releaseId,
        releaseName: 'Standard',
        prices: [expect.objectContaining({ countryCode: 'DE', listPriceCents: 4999 })],
        product: { id: c.productId, name: 'Star Game', slug: expect.any(String) },
      },
    ]);
  });

  it("answers 404 for another company's catalog", async () => {
    const { c } = await world(1);
    const other = await makeSeller(t, { environment: 'production' });
    const result = await call(t, {
      method: 'GET',
      url: v1(`/products/${c.productId}`),
      headers: { ...other.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    expectApiError(result, 404, 'NOT_FOUND');
  });
});

describe('GET /catalog/checksum', () => {
  it('matches a recomputation from GET /products pages, per the documented encoding', async () => {
    const { headers } = await world(4);
    const rows: { id: string; updatedAt: string }[] = [];
    let url: string | null = v1('/products?limit=3');
    while (url) {
      const pageResult = await call(t, { method: 'GET', url, headers });
      rows.push(...pageResult.body.data);
      url = pageResult.body.meta.nextUrl;
    }
    const expected = createHash('sha256')
      .update(
        rows
          .map((r) => `${r.id}\t${r.updatedAt}\n`)
          .sort()
          .join(''),
      )
      .digest('hex');
    const result = await call(t, { method: 'GET', url: v1('/catalog/checksum'), headers });
    expect(result.body.data).toMatchObject({
      digestAlgorithm: 'sha256-sorted-product-rows-v1',
      digest: expected,
      productCount: 4,
    });
  });

  it('changes when a product changes', async () => {
    const { c, headers } = await world(1);
    const before = (await call(t, { method: 'GET', url: v1('/catalog/checksum'), headers })).body.data.digest;
    t.ctx.testClock!.advance(1);
    await admin(t, 'PATCH', `/products/${c.productId}`, { name: 'Renamed' });
    expect(
      (await call(t, { method: 'GET', url: v1('/catalog/checksum'), headers })).body.data.digest,
    ).not.toBe(before);
  });
});

describe('GET /catalog/changes', () => {
  it('serves change records in order; the cursor resumes and wins over since', async () => {
    const { c, headers } = await world(3);
    await admin(t, 'PATCH', `/products/${c.productId}`, { name: 'Renamed' });
    const all = await call(t, { method: 'GET', url: v1('/catalog/changes'), headers });
    const changes = all.body.data.changes;
    expect(changes.at(-1)).toMatchObject({
      productId: c.productId,
      type: 'updated',
      changedFields: ['metadata'],
    });
    const first = await call(t, { method: 'GET', url: v1('/catalog/changes?limit=1'), headers });
    expect(first.body.data.changes).toEqual([changes[0]]);
    // Any RFC 3339 date-time is read, a leap second included; an offset without minutes is not RFC 3339.
    const leap = await call(t, {
      method: 'GET',
      url: v1('/catalog/changes?since=2016-12-31T23:59:60Z'),
      headers,
    });
    expect(leap.body.data.changes).toEqual(changes);
    expectApiError(
      await call(t, { method: 'GET', url: v1('/catalog/changes?since=2024-01-01T00:00:00%2B05'), headers }),
      422,
      'VALIDATION_FAILED',
    );
    const future = new Date(t.ctx.clock.now() + 86_400_000).toISOString();
    const next = await call(t, {
      method: 'GET',
      url: v1(`/catalog/changes?limit=1&since=${future}&cursor=${first.body.meta.nextCursor}`),
      headers,
    });
    expect(next.body.data.changes).toEqual([changes[1]]);
    const empty = await call(t, { method: 'GET', url: v1(`/catalog/changes?since=${future}`), headers });
    expect(empty.body.data.changes).toEqual([]);
  });
});
