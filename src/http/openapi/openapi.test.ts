import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { ADMIN_OPERATIONS } from './admin-operations.js';
import { examplesOf } from './examples.js';
import { SELLER_OPERATIONS } from './seller-operations.js';
import type { Doc, Operation } from './shapes.js';

const t = useTestApp();

const DOCUMENTS = [
  { kind: 'seller', url: '/api/seller/v1/openapi.json', prefix: '/api/seller/v1', table: SELLER_OPERATIONS },
  { kind: 'admin', url: '/admin/v1/openapi.json', prefix: '/admin/v1', table: ADMIN_OPERATIONS },
] as const;

async function documentOf(url: string): Promise<Doc & { paths: Record<string, Record<string, Operation>> }> {
  const reply = await t.app.inject({ method: 'GET', url });
  expect(reply.statusCode).toBe(200);
  return reply.json();
}

/**
 * Operations whose success the recorder cannot capture as one JSON body: streamed or binary
 * answers (the snapshot, gzip artifacts, the keys ZIP).
 */
const WITHOUT_EXAMPLE = new Set([
  'getCatalogSnapshot',
  'downloadCatalogExport',
  'downloadReport',
  'exportKeys',
]);

const operationsOf = (doc: { paths: Record<string, Record<string, Operation>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

describe.each(DOCUMENTS)('the $kind OpenAPI document', ({ kind, url, prefix, table }) => {
  it('documents every route through the operation table, and the table names no route that is gone', async () => {
    const doc = await documentOf(url);
    const routes = operationsOf(doc).map(({ method, path }) => `${method} ${path.slice(prefix.length)}`);
    const missing = routes.filter((key) => !table[key]);
    expect(missing, 'add these routes to the operation table (docs/openapi.md)').toEqual([]);
    expect(Object.keys(table).filter((key) => !routes.includes(key))).toEqual([]);
    const ids = Object.values(table).map((entry) => entry.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every operation an id, a tag, a summary, a description and described parameters', async () => {
    const doc = await documentOf(url);
    for (const { op, method, path } of operationsOf(doc)) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      for (const parameter of op.parameters ?? []) {
        expect(parameter.description, `${where} ${parameter.in} ${parameter.name}`).toBeTruthy();
        if (parameter.schema?.default !== undefined) expect(parameter.required, parameter.name).toBe(false);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema as { allOf: { properties?: object }[] };
        expect(schema.allOf[1]?.properties, `${where} ${status}`).toHaveProperty('code.enum');
      }
    }
  });

  it('shows a recorded request and response example on every operation that speaks JSON', async () => {
    const doc = await documentOf(url);
    const examples = examplesOf(kind);
    const lacking: string[] = [];
    for (const { op } of operationsOf(doc)) {
      const success = Object.entries(op.responses).find(([status]) => Number(status) < 300);
      const json = success?.[1].content?.['application/json'];
      const id = op.operationId ?? '';
      if (json && !examples[id] && !WITHOUT_EXAMPLE.has(id)) lacking.push(id);
      const body = op.requestBody?.content?.['application/json'];
      if (body && op.operationId && examples[op.operationId] && body.example === undefined) {
        lacking.push(`${op.operationId} (request)`);
      }
    }
    expect(lacking, 'record them: npm run openapi:examples (docs/openapi.md)').toEqual([]);
  });
});

describe('what a generated client needs', () => {
  it('lists the scopes the auth hook enforces as alternatives of the bearer scheme', async () => {
    const doc = await documentOf('/api/seller/v1/openapi.json');
    expect(doc.paths['/api/seller/v1/orders/preview']?.post?.security).toEqual([
      { bearer: ['seller:orders:preview'] },
      { bearer: ['seller:keys:pull'] },
    ]);
    expect(doc.paths['/api/seller/v1/whoami-ip']?.get?.security).toEqual([]);
  });

  it('documents Idempotency-Key where accepted, required where required', async () => {
    const doc = await documentOf('/api/seller/v1/openapi.json');
    const headerOf = (op: Operation | undefined) => op?.parameters?.find((p) => p.name === 'Idempotency-Key');
    expect(headerOf(doc.paths['/api/seller/v1/orders']?.post)).toMatchObject({
      in: 'header',
      required: false,
    });
    expect(headerOf(doc.paths['/api/seller/v1/orders/hold']?.post)).toMatchObject({ required: true });
    expect(headerOf(doc.paths['/api/seller/v1/orders']?.get)).toBeUndefined();
  });

  it('lists the codes of an operation under their status', async () => {
    const doc = await documentOf('/api/seller/v1/openapi.json');
    const responses = doc.paths['/api/seller/v1/orders']?.post?.responses ?? {};
    type CodeSchema = { allOf?: { properties?: { code?: { enum?: string[] } } }[] };
    const codes = (status: string) => {
      const schema = responses[status]?.content?.['application/json']?.schema as CodeSchema | undefined;
      return schema?.allOf?.[1]?.properties?.code?.enum;
    };
    expect(codes('409')).toEqual(expect.arrayContaining(['NO_AVAILABLE_KEYS', 'ORDER_REFERENCE_CONFLICT']));
    expect(codes('422')).toEqual(
      expect.arrayContaining(['TAX_DECLARATION_REQUIRED', 'CATALOG_PRICE_MISMATCH']),
    );
    expect(codes('401')).toEqual(['UNAUTHORIZED']);
  });
});
