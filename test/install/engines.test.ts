import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const semver = require('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockEntry {
  version?: string;
  engines?: { node?: string };
}
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const declared = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

describe('npm ci on the Node version we declare', () => {
  it('installs no package whose engines refuse the oldest Node that package.json admits (no EBADENGINE)', () => {
    const oldest = semver.minVersion(declared)?.version ?? '';
    expect(oldest).toMatch(/^20\./);
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
      .map(([path, entry]) => `${path}@${entry.version}: node ${entry.engines?.node}`);
    expect(refusing, `these warn EBADENGINE on Node ${oldest}`).toEqual([]);
    expect(lock.packages['']?.engines?.node).toBe(declared);
  });
});
