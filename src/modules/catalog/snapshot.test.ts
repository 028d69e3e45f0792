import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { admin, buildCatalog } from '../../../test/admin.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract } from '../../../test/route-contract.js';
import { acceptsGzip, matchesEtag, snapshotEtag } from './snapshot.service.js';

const t = useTestApp();
const url = (query = '') => `/api/seller/v1/catalog/snapshot${query}`;

describeRouteContract('GET /catalog/snapshot', t, {
  method: 'GET',
  url: () => url(),
  scopes: ['seller:products:read'],
  badInput: { url: url('?format=xml') },
});

async function world(products: number) {
  const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
  for (let i = 1; i < products; i++) {
    await admin(t, 'POST', '/products', {
      publisherCompanyId: c.publisherId,
      name: `Snap ${i}`,
      slug: `snap-${c.productId.slice(-8)}-${i}`,
      status: 'active',
    });
  }
  const key = await makeKey(t, c.sellerId, { environment: 'production' });
  return { c, headers: { ...key.auth, 'x-forwarded-for': '8.8.8.8' } };
}

describe('GET /catalog/snapshot', () => {
  it('serves json with meta and expanded products, cache headers and a weak ETag', async () => {
    const { c, headers } = await world(3);
    const result = await call(t, { method: 'GET', url: url(), headers });
    expect(result.status).toBe(200);
    expect(result.headers['cache-control']).toBe(
      'private, max-age=300, s-maxage=300, stale-while-revalidate=600',
    );
    expect(result.headers.vary).toBe('Authorization, Accept-Language, Accept-Encoding');
    expect(result.headers.etag).toMatch(/^W\/".+"$/);
    expect(result.body.meta).toMatchObject({
      totalProducts: 3,
      format: 'json',
      maxUpdatedAt: expect.any(String),
    });
    expect(result.body.data).toHaveLength(3);
    expect(result.body.data.find((p: { id: string }) => p.id === c.productId)).toMatchObject({
      availability: { skuCount: 1 },
      pricing: { wholesaleFromCents: null, listPriceFromCents: null },
    });
  });

  it('serves ndjson: the meta line stamped format ndjson, then one product per line', async () => {
    const { headers } = await world(2);
    const result = await call(t, { method: 'GET', url: url('?format=ndjson'), headers });
    expect(result.headers['content-type']).toContain('application/x-ndjson');
    const lines = result.raw
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ format: 'ndjson', totalProducts: 2 });
    expect(
      lines
        .slice(1)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['Snap 1', 'Star Game']);
  });

  it('gzips on Accept-Encoding and answers 304 to a matching If-None-Match', async () => {
    const { c, headers } = await world(1);
    const zipped = await t.app.inject({
      method: 'GET',
      url: url(),
      headers: { ...headers, 'accept-encoding': 'gzip, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'));
    expect(body.meta.totalProducts).toBe(1);
    const etag = zipped.headers.etag as string;
    const revalidated = await t.app.inject({
      method: 'GET',
      url: url(),
      headers: { ...headers, 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);
    // One catalog state, one tag: the identity representation carries it, and a client that
    // revalidates the gzip copy's tag without Accept-Encoding gets its 304 too.
    const identity = await t.app.inject({ method: 'GET', url: url(), headers });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.etag).toBe(etag);
    const crossed = await t.app.inject({
      method: 'GET',
      url: url(),
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(crossed.statusCode).toBe(304);
    t.ctx.testClock!.advance(10);
    await admin(t, 'PATCH', `/products/${c.productId}`, { name: 'Changed' });
    const changed = await t.app.inject({
      method: 'GET',
      url: url(),
      headers: { ...headers, 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
  });

  it('debits the read-cached bucket, not read, for sandbox keys', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'GET', url: url(), headers: seller.auth });
    expect(result.headers['x-ratelimit-limit']).toBe('12000');
  });

  it('streams a catalog larger than one batch completely', async () => {
    const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
    const key = await makeKey(t, c.sellerId, { environment: 'production' });
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      id: `0190a1b2-0000-7000-8000-${String(i).padStart(12, '0')}`,
      publisher_company_id: c.publisherId,
      environment: 'production',
      name: `Bulk ${i}`,
      slug: `bulk-${c.productId.slice(-8)}-${i}`,
      short_description: '{"en":"bulk"}',
      status: 'active' as const,
      launch_phase: 'released' as const,
      trading_state: 'trading' as const,
      platforms: '[]',
      regions: '[]',
      cover: null,
      archive_at: null,
      preorder_start: null,
      preorder_end: null,
      churn_period_hours: null,
      created_at: 1_700_000_000_000 + i,
      updated_at: 1_700_000_000_000 + i,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.ctx.db
        .insertInto('products')
        .values(rows.slice(i, i + 200))
        .execute();
    const result = await call(t, {
      method: 'GET',
      url: url('?format=ndjson'),
      headers: { ...key.auth, 'x-forwarded-for': '8.8.8.8' },
    });
    const lines = result.raw.trim().split('\n');
    expect(JSON.parse(lines[0]!).totalProducts).toBe(1201);
    expect(lines).toHaveLength(1202);
    expect(new Set(lines.slice(1).map((l) => JSON.parse(l).id)).size).toBe(1201);
  });
});

describe('snapshot ETags', () => {
  const meta = { maxUpdatedAt: '2026-11-01T00:00:00.000Z', totalProducts: 3 };
  const etag = snapshotEtag(meta);

  it('derives one weak tag per stamp, whichever object carries the stamp', () => {
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(snapshotEtag({ ...meta })).toBe(etag);
    expect(snapshotEtag({ ...meta, totalProducts: 4 })).not.toBe(etag);
    expect(snapshotEtag({ ...meta, maxUpdatedAt: '2026-11-01T00:00:00.001Z' })).not.toBe(etag);
  });

  it('matches If-None-Match weakly, in lists and by *', () => {
    const opaque = etag.slice(2);
    expect(matchesEtag(etag, etag)).toBe(true);
    expect(matchesEtag(opaque, etag)).toBe(true);
    expect(matchesEtag(`W/"other", ${etag}`, etag)).toBe(true);
    expect(matchesEtag(' * ', etag)).toBe(true);
    expect(matchesEtag('W/"other"', etag)).toBe(false);
    expect(matchesEtag(`${opaque.slice(0, -2)}"`, etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
    expect(matchesEtag('', etag)).toBe(false);
  });

  it('gzips only where Accept-Encoding admits gzip', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('deflate, x-gzipped')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
