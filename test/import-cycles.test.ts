import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const check = (cwd: string, ...roots: string[]) =>
  spawnSync(process.execPath, [join(process.cwd(), 'scripts/check-import-cycles.mjs'), ...roots], {
    cwd,
    encoding: 'utf8',
  });

/** A folder of small modules: name -> source. */
function modules(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'src', name), text);
  return dir;
}

describe('the import-circle check of npm run lint', () => {
  it('names a circle closed by a type-only import', () => {
    const dir = modules({
      'a.ts': "import { b } from './deep/b.js';\nexport const a = () => b;\n",
      'deep/b.ts': "import type { Shape } from '../shape.js';\nexport const b = (s?: Shape) => s;\n",
      'shape.ts': "import { a } from './a.js';\nexport interface Shape { made: ReturnType<typeof a> }\n",
    });
    const run = check(dir, 'src');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('1 import circle(s)');
    for (const file of ['src/a.ts', 'src/deep/b.ts', 'src/shape.ts']) expect(run.stderr).toContain(file);
  });

  it('names a circle closed by a lazy import()', () => {
    const dir = modules({
      'main.ts': "export const start = async () => (await import('./run.js')).run();\n",
      'run.ts': "import type { start } from './main.js';\nexport const run = (s?: typeof start) => s;\n",
    });
    const run = check(dir, 'src');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('src/main.ts');
  });

  it('passes modules whose imports go one way', () => {
    const dir = modules({
      'a.ts': "import { b } from './deep/b.js';\nexport const a = () => b;\n",
      'deep/b.ts': 'export const b = 1;\n',
    });
    expect(check(dir, 'src').status).toBe(0);
  });

  it('finds no circle in the service, the console, the CLI, the SDK, the tests and the benches', () => {
    const run = check(process.cwd(), 'src', 'console/src', 'cli/src', 'sdk/src', 'test', 'bench', 'scripts');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
