import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';
import { MAX_JSON_DEPTH } from './input-limits.js';

const t = useTestApp();
const api = (path: string) => `/api/seller/v1${path}`;

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const json = { 'content-type': 'application/json' };

function expectIssue(
  result: Awaited<ReturnType<typeof call>>,
  issue: { in: string; field: string; keyword: string },
) {
  expectApiError(result, 422, 'VALIDATION_FAILED');
  expect(result.body.details.issues).toEqual([expect.objectContaining(issue)]);
}

describe('JSON depth and the idempotency hash (finding 2)', () => {
  it.each([
    ['POST', '/catalog/exports'],
    ['POST', '/keys/{id}/rotate'],
    ['DELETE', '/keys/{id}'],
    ['POST', '/allocations/requests'],
  ] as const)(
    '%s %s with an Idempotency-Key refuses a body nested 5,000 deep with 422, not 500',
    async (method, path) => {
      const seller = await makeSeller(t);
      const result = await call(t, {
        method,
        url: api(path.replace('{id}', seller.keyId)),
        headers: { ...seller.auth, ...json, 'idempotency-key': `deep-${method}-${path}` },
        payload: nested(5000),
      });
      expectIssue(result, { in: 'body', field: '(root)', keyword: 'maxDepth' });
      const stored = await t.ctx.db
        .selectFrom('idempotency_records')
        .select('idempotency_key')
        .where('company_id', '=', seller.company.id)
        .execute();
      expect(stored).toEqual([]);
    },
  );

  it(`reads a body nested exactly ${MAX_JSON_DEPTH} deep (the schema judges it, not the limit)`, async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: api('/keys'),
      headers: { ...seller.auth, ...json, 'idempotency-key': 'deep-ok' },
      payload: nested(MAX_JSON_DEPTH),
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues[0].keyword).not.toBe('maxDepth');
  });

  it('refuses a body over 1 MiB with 413 before parsing it', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: api('/keys'),
      headers: { ...seller.auth, ...json },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expectApiError(result, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('NUL in path, query and body (finding 3)', () => {
  it.each([
    ['GET', '/availability?skuCode=%00', 'query', 'skuCode'],
    ['GET', '/orders/%00', 'params', 'orderReadableId'],
    ['POST', '/orders/%00/fulfill', 'params', 'orderId'],
    ['GET', '/products?q=%00', 'query', 'q'],
    ['GET', '/products?slug=ab%00', 'query', 'slug'],
  ] as const)('%s %s answers 422 naming the field', async (method, path, where, field) => {
    const seller = await makeSeller(t);
    const result = await call(t, { method, url: api(path), headers: seller.auth });
    expectIssue(result, { in: where, field, keyword: 'nul' });
  });

  it.each([
    ['/orders/preview', { skuCode: '\u0000', quantity: 1 }, 'skuCode'],
    ['/keys', { name: 'a\u0000b' }, 'name'],
    ['/keys', { name: 'ok', 'x\u0000': 1 }, 'x\u0000'],
  ])('POST %s with NUL in a JSON string answers 422 naming %s', async (path, body, field) => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'POST', url: api(path), headers: seller.auth, payload: body });
    expectIssue(result, { in: 'body', field, keyword: 'nul' });
  });

  it('names nested fields by their path', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'PUT',
      url: api('/me/footprint'),
      headers: seller.auth,
      payload: { countries: ['DE', 'U\u0000S'], currencies: ['EUR'] },
    });
    expectIssue(result, { in: 'body', field: 'countries[1]', keyword: 'nul' });
  });
});

describe('invalid UTF-8 (finding 5)', () => {
  it('refuses invalid UTF-8 bytes inside a JSON string with 422 naming the field, and stores nothing', async () => {
    const seller = await makeSeller(t);
    const before = await call(t, { method: 'GET', url: api('/me/footprint'), headers: seller.auth });
    const payload = Buffer.concat([
      Buffer.from('{"currencies":["EUR"],"countries":["DE","'),
      Buffer.from([0xff, 0x53]),
      Buffer.from('"]}'),
    ]);
    const result = await call(t, {
      method: 'PUT',
      url: api('/me/footprint'),
      headers: { ...seller.auth, ...json },
      payload,
    });
    expectIssue(result, { in: 'body', field: 'countries[1]', keyword: 'utf8' });
    const after = await call(t, { method: 'GET', url: api('/me/footprint'), headers: seller.auth });
    expect(after.body).toEqual(before.body);
  });

  it('names an object key holding invalid bytes by its parent path', async () => {
    const seller = await makeSeller(t);
    const payload = Buffer.concat([
      Buffer.from('{"name":"ok","meta":{"'),
      Buffer.from([0xc3]),
      Buffer.from('":1}}'),
    ]);
    const result = await call(t, {
      method: 'POST',
      url: api('/keys'),
      headers: { ...seller.auth, ...json },
      payload,
    });
    expectIssue(result, { in: 'body', field: 'meta.(key)', keyword: 'utf8' });
  });

  it('names the field even past keys that JSON itself would refuse', async () => {
    const seller = await makeSeller(t);
    const payload = Buffer.concat([
      Buffer.from('{"\\x":1,"b\\"c":["'),
      Buffer.from([0xe2, 0x28]),
      Buffer.from('"]}'),
    ]);
    const result = await call(t, {
      method: 'POST',
      url: api('/keys'),
      headers: { ...seller.auth, ...json },
      payload,
    });
    expectIssue(result, { in: 'body', field: 'b"c[0]', keyword: 'utf8' });
  });

  it('refuses a lone surrogate escape, which no engine can store as UTF-8', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, {
      method: 'POST',
      url: api('/keys'),
      headers: { ...seller.auth, ...json },
      payload: '{"name":"a\\ud800b"}',
    });
    expectIssue(result, { in: 'body', field: 'name', keyword: 'utf8' });
  });

  it('refuses a query value whose percent-encoding is not UTF-8', async () => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'GET', url: api('/products?q=%ff'), headers: seller.auth });
    expectIssue(result, { in: 'query', field: 'q', keyword: 'utf8' });
  });

  it('refuses a header value that is not UTF-8, before authentication', async () => {
    const result = await call(t, {
      method: 'GET',
      url: api('/whoami'),
      headers: { 'x-service-sandbox-simulate': 'r\u00e9' },
    });
    expectIssue(result, { in: 'headers', field: 'x-service-sandbox-simulate', keyword: 'utf8' });
  });

  it('accepts UTF-8 text beyond ASCII everywhere', async () => {
    const seller = await makeSeller(t);
    const created = await call(t, {
      method: 'POST',
      url: api('/keys'),
      headers: { ...seller.auth, 'user-agent': Buffer.from('agent é', 'utf8').toString('latin1') },
      payload: { name: 'clé 🎮' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.name).toBe('clé 🎮');
    const found = await call(t, {
      method: 'GET',
      url: api('/products?q=%C3%A9t%C3%A9'),
      headers: seller.auth,
    });
    expect(found.status).toBe(200);
  });
});
