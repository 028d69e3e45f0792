import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { admin, buildCatalog, eventsFor } from '../../../test/admin.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const drain = () => Promise.all([...t.ctx.background]);

describeRouteContract('POST /catalog/exports', t, {
  method: 'POST',
  url: () => '/api/seller/v1/catalog/exports',
  scopes: ['seller:products:read'],
});
describeRouteContract('GET /catalog/exports/{id}', t, {
  method: 'GET',
  url: () => '/api/seller/v1/catalog/exports/0190a1b2-0000-7000-8000-000000000000',
  scopes: ['seller:products:read'],
  badInput: { url: '/api/seller/v1/catalog/exports/not-a-uuid' },
});

async function world() {
  const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
  const key = await makeKey(t, c.sellerId, { environment: 'production' });
  return { c, headers: { ...key.auth, 'x-forwarded-for': '8.8.8.8' } };
}

describe('catalog exports', () => {
  it('builds a gzip NDJSON artifact, records checksum and bytes, serves it by signed URL and announces it', async () => {
    const { c, headers } = await world();
    const started = await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers });
    expect(started.status).toBe(202);
    const { exportId } = started.body;
    await drain();
    const status = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/catalog/exports/${exportId}`,
      headers,
    });
    expect(status.body.data).toMatchObject({
      exportId,
      status: 'ready',
      format: 'ndjson',
      compression: 'gzip',
      totalProducts: 1,
    });
    const path = status.body.data.downloadUrl.replace(t.config.publicUrl, '');
    const download = await t.app.inject({ method: 'GET', url: path });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('application/gzip');
    expect(download.rawPayload.length).toBe(status.body.data.bytes);
    expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(status.body.data.checksum);
    const lines = gunzipSync(download.rawPayload)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ format: 'ndjson', totalProducts: 1 });
    expect(lines[1]).toMatchObject({ id: c.productId });
    expect((await eventsFor(t, c.sellerId, 'catalog.export_ready')).map((e) => e.data)).toEqual([
      {
        exportId,
        checksum: status.body.data.checksum,
        bytes: status.body.data.bytes,
        expiresAt: status.body.data.expiresAt,
        totalProducts: 1,
      },
    ]);
    const tampered = await t.app.inject({
      method: 'GET',
      url: path.replace(/signature=[^&]+/, 'signature=forged'),
    });
    expect(tampered.statusCode).toBe(403);
  });

  it('answers 410 EXPORT_EXPIRED once the artifact TTL passed', async () => {
    const { headers } = await world();
    const { exportId } = (await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers }))
      .body;
    await drain();
    const ready = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/catalog/exports/${exportId}`,
      headers,
    });
    t.ctx.testClock!.advance(3601);
    expectApiError(
      await call(t, { method: 'GET', url: `/api/seller/v1/catalog/exports/${exportId}`, headers }),
      410,
      'EXPORT_EXPIRED',
    );
    const late = await t.app.inject({
      method: 'GET',
      url: ready.body.data.downloadUrl.replace(t.config.publicUrl, ''),
    });
    expect(late.statusCode).toBe(403);
  });

  it('is one job for one Idempotency-Key', async () => {
    const { headers } = await world();
    const first = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/catalog/exports',
      headers: { ...headers, 'idempotency-key': 'exp-1' },
    });
    const again = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/catalog/exports',
      headers: { ...headers, 'idempotency-key': 'exp-1' },
    });
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body.exportId).toBe(first.body.exportId);
    await drain();
  });

  it("hides another company's export and refuses exports while agreements are paused", async () => {
    const { c, headers } = await world();
    const { exportId } = (await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers }))
      .body;
    await drain();
    const other = await makeSeller(t);
    expectApiError(
      await call(t, {
        method: 'GET',
        url: `/api/seller/v1/catalog/exports/${exportId}`,
        headers: other.auth,
      }),
      404,
      'NOT_FOUND',
    );
    const agreement = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
      kind: 'bma',
      bmaType: 'api',
    });
    await admin(t, 'PATCH', `/agreements/${agreement.id}`, { status: 'paused' });
    expectApiError(
      await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers }),
      403,
      'CONTRACT_NOT_ACTIVE',
    );
  });
});
