import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSdkSources, idempotentOperations } from '../../scripts/sdk-generate.js';
import { ENGINE } from '../../test/harness.js';

// The document is built from the route schemas, whatever the engine: checked once, in the SQLite run.
describe.skipIf(ENGINE === 'postgres')('the SDK sources generated from the served document', () => {
  it('are up to date (otherwise: npm run sdk:generate)', async () => {
    const { schema, generated } = await generateSdkSources();
    expect(readFileSync('sdk/src/schema.ts', 'utf8')).toBe(schema);
    expect(readFileSync('sdk/src/generated.ts', 'utf8')).toBe(generated);
  });
});

describe('the operations the client may retry after a fault', () => {
  it('are the mutations whose document declares Idempotency-Key, in place or by $ref', () => {
    const header = { in: 'header', name: 'Idempotency-Key' };
    const doc = {
      paths: {
        '/a': { post: { parameters: [header] }, get: { parameters: [header] } },
        '/b': { put: { parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }] } },
        '/c': { post: { parameters: [{ in: 'query', name: 'Idempotency-Key' }] }, delete: {} },
        '/d': { parameters: [{ in: 'header', name: 'idempotency-key' }], patch: {} },
      },
      components: { parameters: { IdempotencyKey: header } },
    };
    expect(idempotentOperations(doc)).toEqual(['PATCH /d', 'POST /a', 'PUT /b']);
  });
});
