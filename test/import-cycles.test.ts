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

  it('names a loop between feature modules whose files form no circle', () => {
    const dir = modules({});
    mkdirSync(join(dir, 'src', 'modules', 'orders'), { recursive: true });
    mkdirSync(join(dir, 'src', 'modules', 'grants'), { recursive: true });
    const write = (name: string, text: string) => writeFileSync(join(dir, 'src', 'modules', name), text);
    write(
      'orders/place.ts',
      "import { headroom } from '../grants/headroom.js';\nexport const place = headroom;\n",
    );
    write('orders/promised.ts', 'export const promised = 0;\n');
    write(
      'grants/headroom.ts',
      "import { promised } from '../orders/promised.js';\nexport const headroom = promised;\n",
    );
    write(
      'grants/headroom.test.ts',
      "import { place } from '../orders/place.js';\nexport const t = place;\n",
    );
    const run = check(dir, 'src');
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain('import circle');
    expect(run.stderr).toContain('1 loop(s) among modules');
    expect(run.stderr).toContain('grants, orders');
    write('grants/headroom.ts', 'export const headroom = 1;\n');
    expect(check(dir, 'src').status).toBe(0);
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
