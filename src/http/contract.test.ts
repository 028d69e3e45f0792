import { describe, expect, it } from 'vitest';
import { admin, buildCatalog } from '../../test/admin.js';
import { makeKey, makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';

const t = useTestApp();

describe('response headers', () => {
  it('stamps X-Api-Version, X-Request-Id and the default contract date on success', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(result.status).toBe(200);
    expect(result.headers['x-api-version']).toBe('1');
    expect(result.headers['x-request-id']).toMatch(/^req_[0-9a-z]{20}$/);
    expect(result.headers['x-service-api-version']).toBe('2026-09-01');
  });

  it('stamps the same headers on errors, with the requestId in the body', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/whoami' });
    expectApiError(result, 401, 'UNAUTHORIZED');
    expect(result.headers['x-api-version']).toBe('1');
    expect(result.headers['x-service-api-version']).toBe('2026-09-01');
    expect(result.body.requestId).toBe(result.headers['x-request-id']);
  });

  it('echoes a pinned contract date', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { ...seller.auth, 'x-service-api-version': '2026-04-29' },
    });
    expect(result.status).toBe(200);
    expect(result.headers['x-service-api-version']).toBe('2026-04-29');
  });

  it('refuses an unsupported contract date with UNSUPPORTED_API_VERSION', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { ...seller.auth, 'x-service-api-version': '2025-01-01' },
    });
    expectApiError(result, 400, 'UNSUPPORTED_API_VERSION');
    expect(result.body.details.supportedVersions).toEqual(['2026-04-29', '2026-09-01']);
  });
});

describe('the ApiError envelope for every failure', () => {
  it('answers 404 NOT_FOUND for an unknown route', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/no-such-thing' });
    expectApiError(result, 404, 'NOT_FOUND');
  });

  it('answers 405 METHOD_NOT_ALLOWED with Allow for a known path and wrong method', async () => {
    const result = await call(t, { method: 'DELETE', url: '/api/seller/v1/whoami' });
    expectApiError(result, 405, 'METHOD_NOT_ALLOWED');
    expect(result.headers.allow).toContain('GET');
  });

  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: { ...seller.auth, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expectApiError(result, 400, 'BAD_REQUEST');
    expect(result.body.details.reason).toBe('malformed_json');
    expect(result.raw).not.toMatch(/at .*\.js|SyntaxError/);
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: { ...seller.auth, 'content-type': 'text/xml' },
      payload: '<key/>',
    });
    expectApiError(result, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 413 PAYLOAD_TOO_LARGE for an oversized body', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: { ...seller.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expectApiError(result, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 422 VALIDATION_FAILED naming every invalid field', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: seller.auth,
      payload: { name: '', includeFinanceScope: 'maybe' },
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    const fields = result.body.details.issues.map((i: { field: string }) => i.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'includeFinanceScope']));
    expect(result.body.details.issues[0].in).toBe('body');
  });

  it('names a missing required field', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: seller.auth,
      payload: {},
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues[0]).toMatchObject({ field: 'name', keyword: 'required' });
  });
});

describe('UUIDs', () => {
  it('find a product by its upper-case id and answer the id lower-case', async () => {
    const c = await buildCatalog(t, { catalogShareMode: 'whole_catalog' });
    const key = await makeKey(t, c.sellerId, { environment: 'production' });
    const headers = { ...key.auth, 'x-forwarded-for': '8.8.8.8' };
    const upper = c.productId.toUpperCase();
    const product = await call(t, { method: 'GET', url: `/api/seller/v1/products/${upper}`, headers });
    expect(product.status, JSON.stringify(product.body)).toBe(200);
    expect(product.body.data.id).toBe(c.productId);
    const pricing = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/products/${upper}/pricing`,
      headers,
    });
    expect(pricing.status).toBe(200);
  });

  it('reach a handler lower-case from a JSON body too', async () => {
    const c = await buildCatalog(t);
    const seller = await admin(t, 'POST', '/companies', { name: 'Shop Upper', country: 'DE' });
    const connection = await admin(t, 'POST', '/connections', {
      sellerCompanyId: seller.id.toUpperCase(),
      publisherCompanyId: c.publisherId.toUpperCase(),
    });
    expect(connection).toMatchObject({ sellerCompanyId: seller.id, publisherCompanyId: c.publisherId });
  });

  it('appear in the OpenAPI document as format uuid with the x-lowercase extension', async () => {
    const doc = (await call(t, { method: 'GET', url: '/api/seller/v1/openapi.json' })).body;
    const [param] = doc.paths['/api/seller/v1/products/{productId}'].get.parameters.filter(
      (p: { in: string }) => p.in === 'path',
    );
    expect(param).toMatchObject({ name: 'productId', required: true });
    expect(param.schema).toEqual({ type: 'string', format: 'uuid', 'x-lowercase': true });
  });

  it('refuse a urn:uuid: prefix with 422 VALIDATION_FAILED', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/products/urn:uuid:0190a1b2-0000-7000-8000-000000000000',
      headers: seller.auth,
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues).toEqual([expect.objectContaining({ field: 'productId' })]);
  });
});

describe('unversioned paths', () => {
  it('redirect with 308 to /api/seller/v1, keeping the query', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/products?limit=5' });
    expect(result.status).toBe(308);
    expect(result.headers.location).toBe('/api/seller/v1/products?limit=5');
  });

  it('redirect POSTs too (method and body kept by 308)', async () => {
    const result = await call(t, { method: 'POST', url: '/api/seller/orders', payload: {} });
    expect(result.status).toBe(308);
    expect(result.headers.location).toBe('/api/seller/v1/orders');
  });

  it('do not redirect an unknown major version', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v2/whoami' });
    expectApiError(result, 404, 'NOT_FOUND');
  });
});

describe('utility endpoints', () => {
  it('GET /health answers without a key', async () => {
    const result = await call(t, { method: 'GET', url: '/api/seller/v1/health' });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('GET /whoami-ip shows the resolved client address and the request id', async () => {
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami-ip',
      headers: { 'x-forwarded-for': '8.8.4.4, 10.0.0.1' },
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      data: { clientIp: '8.8.4.4' },
      meta: { requestId: result.headers['x-request-id'] },
    });
  });

  it('GET /whoami-ip prefers x-real-ip over x-forwarded-for', async () => {
    const result = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami-ip',
      headers: { 'x-forwarded-for': '8.8.4.4', 'x-real-ip': '1.1.1.1' },
    });
    expect(result.body.data.clientIp).toBe('1.1.1.1');
  });
});
