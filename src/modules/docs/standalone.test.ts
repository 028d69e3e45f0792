import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';

const t = useTestApp();

/** Citations of a contract the reader does not have, or links out of the repository. */
const FOREIGN = [/\bSPEC\b/, /shared\/(SPEC|DESIGN)\.md/, /\.\.\/shared\//, /\bDESIGN\.md\b/];

const offending = (text: string) =>
  text
    .split('\n')
    .map((line, i) => ({ line: i + 1, text: line }))
    .filter(({ text: line }) => FOREIGN.some((pattern) => pattern.test(line)));

describe('the docs stand alone: no citation of a contract outside them, no link out of the repository', () => {
  const files = [
    'README.md',
    'sdk/README.md',
    'examples/storefront/README.md',
    ...readdirSync('docs')
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  it.each(files)('%s', (file) => {
    expect(offending(readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('the /docs page and the OpenAPI document it renders', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    const doc = await t.app.inject({ method: 'GET', url: '/api/seller/v1/openapi.json' });
    expect(offending(page.body.replaceAll('\\n', '\n'))).toEqual([]);
    expect(offending(JSON.stringify(JSON.parse(doc.body), null, 1))).toEqual([]);
  });
});
