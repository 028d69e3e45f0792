import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'sdapi-cli-'));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dataDir, 'cli.sqlite')}`,
  DATA_DIR: dataDir,
  CI: '',
};

async function sdapi(...args: string[]) {
  const { stdout, stderr } = await run(process.execPath, ['bin/sdapi.js', ...args], {
    env,
    cwd: process.cwd(),
  });
  return { stdout, stderr };
}

const json = async (...args: string[]) => JSON.parse((await sdapi(...args, '--json')).stdout);

describe('sdapi CLI (embedded SQLite)', () => {
  it('creates a company and a key whose token has the typed prefix', async () => {
    const company = await json('company', 'create', '--name', 'CLI Store', '--country', 'de');
    expect(await json('webhooks', 'deliveries', '--company', company.id)).toEqual({ deliveries: [] });
    expect(company).toMatchObject({ name: 'CLI Store', country: 'DE', kind: 'seller' });
    const key = await json(
      'key',
      'create',
      '--company',
      company.id,
      '--environment',
      'sandbox',
      '--scopes',
      'seller:products:read',
    );
    expect(key).toMatchObject({
      key: expect.stringMatching(/^service_sk_sbx_/),
      scopes: ['seller:products:read'],
    });
  }, 60_000);

  it('seeds the sandbox once and streams a key file into a pool with progress', async () => {
    const seeded = await json('seed', 'sandbox');
    expect(seeded.created).toContain('SANDBOX-ALWAYS-001');
    expect((await json('seed', 'sandbox')).created).toEqual([]);
    const publisher = await json('company', 'create', '--name', 'CLI Pub', '--kind', 'publisher');
    const product = (
      await json(
        'admin',
        'POST',
        '/products',
        '--data',
        JSON.stringify({ publisherCompanyId: publisher.id, name: 'CLI Game', slug: 'cli-game' }),
      )
    ).data;
    const release = (
      await json('admin', 'POST', `/products/${product.id}/releases`, '--data', '{"name":"Standard"}')
    ).data;
    const sku = (
      await json(
        'admin',
        'POST',
        `/releases/${release.id}/skus`,
        '--data',
        '{"code":"CLI-001","platform":"steam"}',
      )
    ).data;
    const pool = (
      await json('admin', 'POST', '/pools', '--data', JSON.stringify({ kind: 'shared', skuId: sku.id }))
    ).data;
    const file = join(dataDir, 'keys.txt');
    writeFileSync(file, 'CLI-KEY-1\nCLI-KEY-2\nCLI-KEY-1\n');
    const { stdout, stderr } = await sdapi('keys', 'import', '--pool', pool.id, '--file', file, '--json');
    expect(JSON.parse(stdout)).toMatchObject({ imported: 2, duplicates: 1, rejected: 0 });
    expect(stderr).toContain('100%');
  }, 60_000);

  it('answers an unknown command with usage and a non-zero exit', async () => {
    await expect(sdapi('frobnicate')).rejects.toMatchObject({ code: 2 });
  }, 30_000);
});
