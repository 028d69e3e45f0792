import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'test', 'sdk/test', 'cli/test', 'examples'];

/** Each test file under the roots, with its text. */
const testFiles = () =>
  ROOTS.flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.test.ts') && !path.includes('node_modules'))
      .map((path) => ({ file: join(root, path), text: readFileSync(join(root, path), 'utf8') })),
  );

/**
 * Test files share their worker's loaded modules (vitest.config.ts): a `vi.mock` replaces a
 * module only for modules loaded after it, so a file that replaces one must load what it tests
 * afresh (`vi.resetModules()`, then `await import(...)`), or it silently tests the real module.
 */
describe('test files that replace a module', () => {
  it('load what they test afresh', () => {
    const replacing = testFiles().filter(({ text }) => /\bvi\.(mock|doMock)\(/.test(text));
    expect(replacing).not.toEqual([]);
    const loadingStale = replacing
      .filter(({ text }) => !text.includes('vi.resetModules()'))
      .map(({ file }) => file);
    expect(loadingStale, `${loadingStale.join(', ')}: vi.mock without vi.resetModules()`).toEqual([]);
  });
});
