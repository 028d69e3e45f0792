import { describe, expect, it } from 'vitest';
import { admin as adminCall, buildCatalog } from '../../../test/admin.js';
import { ADMIN_TOKEN, createTestApp, useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('operator API', () => {
  it('refuses requests without the admin token', async () => {
    expectApiError(
      await call(t, { method: 'POST', url: '/admin/v1/companies', payload: { name: 'x' } }),
      401,
      'UNAUTHORIZED',
    );
    const wrong = await call(t, {
      method: 'POST',
      url: '/admin/v1/companies',
      headers: { authorization: 'Bearer nope' },
      payload: { name: 'x' },
    });
    expectApiError(wrong, 401, 'UNAUTHORIZED');
  });

  it('creates a company and a key whose token works on the seller API', async () => {
    const company = await call(t, {
      method: 'POST',
      url: '/admin/v1/companies',
      headers: admin,
      payload: { name: 'Acme Games', country: 'DE' },
    });
    expect(company.status).toBe(201);
    expect(company.body.data).toMatchObject({
      id: expect.any(String),
      name: 'Acme Games',
      country: 'DE',
      productionAccess: false,
    });
    const key = await call(t, {
      method: 'POST',
      url: `/admin/v1/companies/${company.body.data.id}/keys`,
      headers: admin,
      payload: { environment: 'sandbox', scopes: ['seller:products:read'] },
    });
    expect(key.status).toBe(201);
    expect(key.body.data).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^service_sk_sbx_/),
      scopes: ['seller:products:read'],
    });
    const whoami = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { authorization: `Bearer ${key.body.data.key}` },
    });
    expect(whoami.body.data).toMatchObject({
      companyId: company.body.data.id,
      scopes: ['seller:products:read'],
    });
  });

  it('grants every scope when scopes are omitted', async () => {
    const company = await call(t, {
      method: 'POST',
      url: '/admin/v1/companies',
      headers: admin,
      payload: { name: 'All' },
    });
    const key = await call(t, {
      method: 'POST',
      url: `/admin/v1/companies/${company.body.data.id}/keys`,
      headers: admin,
      payload: { environment: 'sandbox' },
    });
    expect(key.body.data.scopes).toHaveLength(13);
  });

  it('refuses a production key for a company without signed terms', async () => {
    const company = await call(t, {
      method: 'POST',
      url: '/admin/v1/companies',
      headers: admin,
      payload: { name: 'Unsigned', productionAccess: true },
    });
    const key = await call(t, {
      method: 'POST',
      url: `/admin/v1/companies/${company.body.data.id}/keys`,
      headers: admin,
      payload: { environment: 'production', allowedIps: ['8.8.8.8'] },
    });
    expectApiError(key, 403, 'API_MODEL_AGREEMENT_REQUIRED');
  });

  it('answers 404 for keys of an unknown company and 422 for bad input', async () => {
    const missing = await call(t, {
      method: 'POST',
      url: '/admin/v1/companies/0190a1b2-0000-7000-8000-000000000000/keys',
      headers: admin,
      payload: { environment: 'sandbox' },
    });
    expectApiError(missing, 404, 'NOT_FOUND');
    const bad = await call(t, {
      method: 'POST',
      url: '/admin/v1/companies',
      headers: admin,
      payload: { name: 'x', country: 'Germany' },
    });
    expectApiError(bad, 422, 'VALIDATION_FAILED');
  });

  it('moves the test clock forward', async () => {
    const before = t.ctx.clock.now();
    const result = await call(t, {
      method: 'POST',
      url: '/admin/v1/clock',
      headers: admin,
      payload: { advanceSeconds: 3600 },
    });
    expect(result.status).toBe(200);
    expect(Date.parse(result.body.data.now)).toBeGreaterThanOrEqual(before + 3_600_000);
  });

  it('refuses the clock when the test clock is off', async () => {
    const plain = await createTestApp({ testClock: false });
    try {
      expect(plain.ctx.testClock).toBeUndefined();
      const result = await call(plain, {
        method: 'POST',
        url: '/admin/v1/clock',
        headers: admin,
        payload: { advanceSeconds: 1 },
      });
      expectApiError(result, 403, 'FORBIDDEN');
    } finally {
      await plain.close();
    }
  });
});

describe('operator catalog and supply reads', () => {
  it('delists and relists a SKU, and reads a pool with its stock', async () => {
    const c = await buildCatalog(t);
    expect(await adminCall(t, 'PATCH', `/skus/${c.skuId}`, { delisted: true })).toMatchObject({
      id: c.skuId,
      delisted: true,
    });
    expect(await adminCall(t, 'PATCH', `/skus/${c.skuId}`, { delisted: false })).toMatchObject({
      delisted: false,
    });
    const pool = await adminCall(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId });
    const imported = await t.adminApp.inject({
      method: 'POST',
      url: `/admin/v1/pools/${pool.id}/keys`,
      headers: { ...admin, 'content-type': 'text/plain' },
      payload: 'OPS-1\nOPS-2\n',
    });
    expect(imported.statusCode, imported.body).toBeLessThan(300);
    expect(await adminCall(t, 'GET', `/pools/${pool.id}`)).toMatchObject({
      id: pool.id,
      availableKeys: 2,
    });
  });
});
