import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { admin, buildCatalog, eventsFor } from '../../../test/admin.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { settlePendingExport } from './exports.repo.js';
import { BUILD_DEADLINE_MS } from './exports.service.js';

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

  it('answers 410 EXPORT_EXPIRED once the artifact TTL passed, to a signed link too', async () => {
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
    const path = ready.body.data.downloadUrl.replace(t.config.publicUrl, '');
    const late = await call(t, { method: 'GET', url: path });
    expectApiError(late, 410, 'EXPORT_EXPIRED');
    expect(late.body.details.expiredAt).toBe(ready.body.data.expiresAt);
    expectApiError(
      await call(t, { method: 'GET', url: path.replace(/signature=[^&]+/, 'signature=forged') }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses a signed link past its own expiry with 403 while the artifact lives', async () => {
    const { headers } = await world();
    const { exportId } = (await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers }))
      .body;
    await drain();
    const statusUrl = `/api/seller/v1/catalog/exports/${exportId}`;
    const first = (await call(t, { method: 'GET', url: statusUrl, headers })).body.data;
    t.ctx.testClock!.advance(301);
    expectApiError(
      await call(t, { method: 'GET', url: first.downloadUrl.replace(t.config.publicUrl, '') }),
      403,
      'FORBIDDEN',
    );
    const fresh = (await call(t, { method: 'GET', url: statusUrl, headers })).body.data;
    const download = await t.app.inject({
      method: 'GET',
      url: fresh.downloadUrl.replace(t.config.publicUrl, ''),
    });
    expect(download.statusCode).toBe(200);
  });

  it("serves a link issued in the artifact's last second until the artifact expires", async () => {
    const { headers } = await world();
    // Start a third into a second, so the artifact's expiry falls inside a second, not on one.
    t.ctx.testClock!.advance(((1300 - (t.ctx.clock.now() % 1000)) % 1000) / 1000);
    const { exportId } = (await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers }))
      .body;
    await drain();
    const statusUrl = `/api/seller/v1/catalog/exports/${exportId}`;
    const expiresAt = Date.parse(
      (await call(t, { method: 'GET', url: statusUrl, headers })).body.data.expiresAt,
    );
    expect(expiresAt % 1000).toBeGreaterThan(0);
    t.ctx.testClock!.advance((expiresAt - (expiresAt % 1000) + 1 - t.ctx.clock.now()) / 1000);
    const last = (await call(t, { method: 'GET', url: statusUrl, headers })).body.data;
    expect(last.downloadUrlExpiresAt).toBe(last.expiresAt);
    const download = await t.app.inject({
      method: 'GET',
      url: last.downloadUrl.replace(t.config.publicUrl, ''),
    });
    expect(download.statusCode).toBe(200);
  });

  it('shows a failed export with a stable message, never the internal error', async () => {
    const { c, headers } = await world();
    await t.ctx.db
      .updateTable('products')
      .set({ platforms: 'not json' })
      .where('id', '=', c.productId)
      .execute();
    const { exportId } = (await call(t, { method: 'POST', url: '/api/seller/v1/catalog/exports', headers }))
      .body;
    await drain();
    const failed = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/catalog/exports/${exportId}`,
      headers,
    });
    expect(failed.body.data).toMatchObject({
      status: 'failed',
      downloadUrl: null,
      error: 'The export could not be built; start a new one.',
    });
    const stored = await t.ctx.db
      .selectFrom('catalog_exports')
      .select(['status', 'error'])
      .where('id', '=', exportId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'failed', error: 'The export could not be built; start a new one.' });
  });

  it('shows a job whose build died with its process as failed, and a late build cannot revive it', async () => {
    const { c, headers } = await world();
    const exportId = '0190a1b2-0000-7000-8000-00000000dead';
    await t.ctx.db
      .insertInto('catalog_exports')
      .values({
        id: exportId,
        seller_company_id: c.sellerId,
        environment: 'production',
        status: 'pending',
        locale: 'en',
        created_at: t.ctx.clock.now(),
      })
      .execute();
    const url = `/api/seller/v1/catalog/exports/${exportId}`;
    expect((await call(t, { method: 'GET', url, headers })).body.data.status).toBe('pending');
    t.ctx.testClock!.advance(BUILD_DEADLINE_MS / 1000 + 1);
    expect((await call(t, { method: 'GET', url, headers })).body.data).toMatchObject({
      status: 'failed',
      downloadUrl: null,
      error: 'The export could not be built; start a new one.',
    });
    expect(await settlePendingExport(t.ctx.db, exportId, { status: 'ready' })).toBe(false);
    expect((await call(t, { method: 'GET', url, headers })).body.data.status).toBe('failed');
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
