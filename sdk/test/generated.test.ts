import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSdkSources } from '../../scripts/sdk-generate.js';
import { ENGINE } from '../../test/harness.js';

// The document is built from the route schemas, whatever the engine: checked once, in the SQLite run.
describe.skipIf(ENGINE === 'postgres')('the SDK sources generated from the served document', () => {
  it('are up to date (otherwise: npm run sdk:generate)', async () => {
    const { schema, generated } = await generateSdkSources();
    expect(readFileSync('sdk/src/schema.ts', 'utf8')).toBe(schema);
    expect(readFileSync('sdk/src/generated.ts', 'utf8')).toBe(generated);
  });
});
