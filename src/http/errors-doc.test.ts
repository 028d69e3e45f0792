import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_MEANINGS } from './error-meanings.js';
import { ERROR_CODES } from './errors.js';
import { renderErrorsDoc } from './errors-doc.js';

describe('docs/errors.md', () => {
  it('gives every registry code a meaning', () => {
    expect(
      Object.keys(ERROR_CODES).filter((code) => !ERROR_MEANINGS[code as keyof typeof ERROR_CODES]),
    ).toEqual([]);
  });

  it('is what the registry renders today (run `npm run docs:errors` after changing src/http/errors.ts)', () => {
    const onDisk = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(renderErrorsDoc());
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect(onDisk).toContain(`| \`${code}\` | ${info.status} | ${info.recoverable ? 'yes' : 'no'} |`);
    }
  });
});
