import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { useTestApp } from '../../test/harness.js';
import { call, expectApiError } from '../../test/route-contract.js';

const t = useTestApp();

describe('unknown body fields and query parameters are refused, never ignored', () => {
  it('POST /keys {environment: production} answers 422 naming the field, and creates no key', async () => {
    const seller = await makeSeller(t);
    const before = await call(t, { method: 'GET', url: '/api/seller/v1/keys', headers: seller.auth });
    const result = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/keys',
      headers: seller.auth,
      payload: { name: 'ci', environment: 'production' },
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues).toEqual([
      expect.objectContaining({ field: 'environment', in: 'body', keyword: 'additionalProperties' }),
    ]);
    const after = await call(t, { method: 'GET', url: '/api/seller/v1/keys', headers: seller.auth });
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it.each([
    ['a misspelt filter', '/api/seller/v1/products?skuCode=SANDBOX-ALWAYS-001', 'skuCode'],
    ['a parameter on a route that takes none', '/api/seller/v1/whoami?verbose=1', 'verbose'],
  ])('GET with %s answers 422 naming it', async (_what, url, field) => {
    const seller = await makeSeller(t);
    const result = await call(t, { method: 'GET', url, headers: seller.auth });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues).toEqual([expect.objectContaining({ field, in: 'query' })]);
  });

  it('states it in the OpenAPI document: every request body object is closed', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/seller/v1/openapi.json' })).json();
    const open: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.properties && schema.additionalProperties === undefined) open.push(where);
      for (const [name, child] of Object.entries((schema.properties as object) ?? {}))
        walk(child, `${where}.${name}`);
      walk(schema.items, `${where}[]`);
    };
    for (const [path, methods] of Object.entries(
      doc.paths as Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>
      >,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        walk(op.requestBody?.content?.['application/json']?.schema, `${method} ${path}`);
      }
    }
    expect(open).toEqual([]);
  });
});
