import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipFiles } from './zip.js';

const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
function written(archive: Buffer, name = 'a.zip') {
  const path = join(dir, name);
  writeFileSync(path, archive);
  return path;
}
const unzip = (path: string, entry: string) =>
  execFileSync('unzip', ['-p', path, entry], { maxBuffer: 16 * 1024 * 1024 });

describe('zipFiles', () => {
  it('writes archives that unzip extracts byte for byte and verifies', () => {
    const keys = 'AAAA-BBBB-CCCC\nDDDD-EEEE-FFFF\n';
    const big = 'KEY-0123456789\n'.repeat(70_000);
    const path = written(
      zipFiles([
        { name: 'keys.txt', content: keys, modifiedAt: new Date('2026-11-23T10:20:30Z') },
        { name: 'ключи.txt', content: 'ü' },
        { name: 'empty.txt', content: '' },
        { name: 'big.txt', content: big },
      ]),
    );
    expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
    expect(unzip(path, 'keys.txt').toString()).toBe(keys);
    const names = execFileSync('python3', [
      '-c',
      'import sys,zipfile;print("|".join(zipfile.ZipFile(sys.argv[1]).namelist()))',
      path,
    ]);
    expect(names.toString().trim()).toBe('keys.txt|ключи.txt|empty.txt|big.txt');
    expect(unzip(path, 'empty.txt').length).toBe(0);
    expect(unzip(path, 'big.txt').toString()).toBe(big);
    expect(execFileSync('unzip', ['-l', path]).toString()).toContain('2026-11-23 10:20');
  });

  it('produces archives whose corruption the reader detects', () => {
    const archive = zipFiles([{ name: 'keys.txt', content: 'SECRET-KEY-1\n'.repeat(10) }]);
    archive[40] = archive[40]! ^ 0xff;
    const path = written(archive, 'broken.zip');
    expect(() => execFileSync('unzip', ['-t', path], { stdio: 'pipe' })).toThrow();
  });
});
