import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'test', 'sdk/test', 'cli/test', 'examples'];

function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Test files share their worker's loaded modules (vitest.config.ts): a `vi.mock` replaces a
 * module only for modules loaded after it, so a file that replaces one must load what it tests
 * afresh (`vi.resetModules()`, then `await import(...)`), or it silently tests the real module.
 */
describe('test files that replace a module', () => {
  it('load what they test afresh', () => {
    const replacing = ROOTS.flatMap(testFilesUnder).filter((file) =>
      /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')),
    );
    expect(replacing).not.toEqual([]);
    const loadingStale = replacing.filter(
      (file) => !readFileSync(file, 'utf8').includes('vi.resetModules()'),
    );
    expect(loadingStale, `${loadingStale.join(', ')}: vi.mock without vi.resetModules()`).toEqual([]);
  });
});
