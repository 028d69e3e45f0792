import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
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
    expect(await json('webhooks', 'deliveries', '--company', company.id)).toMatchObject({ data: [] });
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
    writeFileSync(file, 'CLI-KEY-1\nCLI-KEY-2\nCLI-KEY-1\nCLI KEY 3\nCLI-\u0007KEY-4\n');
    const { stdout, stderr } = await sdapi('keys', 'import', '--pool', pool.id, '--file', file, '--json');
    expect(JSON.parse(stdout)).toMatchObject({
      imported: 2,
      duplicates: 1,
      rejected: 2,
      rejectedLines: [
        { line: 4, reason: 'whitespace inside the key' },
        { line: 5, reason: 'control character in the key' },
      ],
    });
    expect(stderr).toContain('100%');
    expect(stderr).toContain('refused line 4: whitespace inside the key');

    const pools = await json('pools', 'list', '--sku', 'CLI-001');
    expect(pools.data).toEqual([
      expect.objectContaining({ id: pool.id, skuCode: 'CLI-001', availableKeys: 2 }),
    ]);
    expect((await json('pools', 'list', '--sku', sku.id)).data.map((p: { id: string }) => p.id)).toEqual([
      pool.id,
    ]);
  }, 60_000);

  it("lists companies a page at a time, and a seller's API keys without their tokens", async () => {
    const created = [];
    for (const name of ['List A', 'List B', 'List C'])
      created.push(await json('company', 'create', '--name', name, '--country', 'FR'));
    const first = await json('companies', 'list', '--country', 'fr', '--limit', '2');
    expect(first.data.map((c: { name: string }) => c.name)).toEqual(['List C', 'List B']);
    expect(first.meta).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await json(
      'companies',
      'list',
      '--country',
      'FR',
      '--limit',
      '2',
      '--cursor',
      first.meta.nextCursor,
    );
    expect(second.data.map((c: { name: string }) => c.name)).toEqual(['List A']);
    expect(second.meta.hasMore).toBe(false);
    const table = (await sdapi('companies', 'list', '--country', 'FR')).stdout;
    expect(table.split('\n')[0]).toMatch(/^id +name +kind +country/);
    expect(table).toContain('(3 in all)');

    const seller = created[0];
    const key = await json('key', 'create', '--company', seller.id, '--environment', 'sandbox');
    const keys = await sdapi('keys', 'list', '--company', seller.id);
    expect(keys.stdout).toContain(key.id);
    expect(keys.stdout).not.toContain(key.key);
    expect((await json('keys', 'list', '--company', seller.id)).data).toEqual([
      expect.objectContaining({ id: key.id, environment: 'sandbox', revokedAt: null }),
    ]);
    expect((await json('allocations', 'list', '--company', seller.id)).data).toEqual([]);
  }, 60_000);

  it('validates as the admin API does: a country must be a code, an unknown company is 404', async () => {
    const refused = sdapi('company', 'create', '--name', 'Bad Country', '--country', 'Germany');
    await expect(refused).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^VALIDATION_FAILED: body country/),
    });
    await expect(sdapi('companies', 'list', '--limit', '0')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^VALIDATION_FAILED: query limit/),
    });
    await expect(
      sdapi('allocations', 'list', '--company', '0190a1b2-0000-7000-8000-000000000000'),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/^NOT_FOUND/) });
  }, 60_000);

  it('answers a mistyped option with one line and the usage, never a stack trace', async () => {
    for (const args of [
      ['companies', 'list', '--contry', 'DE'],
      ['companies', 'list', '--pool', 'x'],
      ['pools', 'list', '--sku'],
    ]) {
      const failure = await sdapi(...args).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failure?.code, args.join(' ')).toBe(2);
      const [first, blank, usage] = failure?.stderr.split('\n') ?? [];
      expect(first).toMatch(/^sdapi: /);
      expect(blank).toBe('');
      expect(usage).toMatch(/^sdapi: operator CLI/);
      expect(failure?.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it('approves and declines allocation increase requests', async () => {
    const seller = await json('company', 'create', '--name', 'Req Shop', '--country', 'DE');
    const publisher = await json('company', 'create', '--name', 'Req Pub', '--kind', 'publisher');
    const admin = async (method: string, path: string, body: unknown) =>
      (await json('admin', method, path, '--data', JSON.stringify(body))).data;
    const connection = await admin('POST', '/connections', {
      sellerCompanyId: seller.id,
      publisherCompanyId: publisher.id,
    });
    const product = await admin('POST', '/products', {
      publisherCompanyId: publisher.id,
      name: 'Req Game',
      slug: 'req-game',
    });
    const release = await admin('POST', `/products/${product.id}/releases`, { name: 'Standard' });
    const sku = await admin('POST', `/releases/${release.id}/skus`, { code: 'REQ-001', platform: 'steam' });
    const grant = await admin('POST', `/connections/${connection.id}/allocations`, {
      skuId: sku.id,
      quantityLimit: 10,
      requestPolicy: 'manual',
    });
    // Two pending requests, as POST /allocations/requests stores them (the seller API is not here).
    const db = new Database(join(dataDir, 'cli.sqlite'));
    const ids = ['0190a1b2-0000-7000-8000-00000000000a', '0190a1b2-0000-7000-8000-00000000000b'];
    for (const [i, id] of ids.entries()) {
      db.prepare(
        `insert into allocation_requests (id, allocation_id, seller_company_id, environment,
           requested_quantity, status, created_at) values (?, ?, ?, 'production', 20, 'pending', ?)`,
      ).run(id, grant.id, seller.id, Date.now() + i);
    }
    db.close();
    const pending = await json('requests', 'list', '--status', 'pending', '--company', seller.id);
    expect(pending.data.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());

    const approved = await json('requests', 'approve', ids[0]!, '--quantity', '5');
    expect(approved).toMatchObject({ status: 'approved', resolution: { approvedQuantity: 5 } });
    const declined = await json('requests', 'decline', ids[1]!, '--reason', 'allocation is final');
    expect(declined).toMatchObject({ status: 'rejected', resolution: { reason: 'allocation is final' } });
    const [allocation] = (await json('allocations', 'list', '--company', seller.id)).data;
    expect(allocation).toMatchObject({ id: grant.id, quantityLimit: 15 });

    await expect(sdapi('requests', 'approve', ids[1]!)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^ALLOCATION_REQUEST_RESOLVED/),
    });
    await expect(sdapi('requests', 'decline', ids[0]!)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^VALIDATION_FAILED: --reason is required/),
    });
    expect((await json('requests', 'list', '--status', 'pending')).data).toEqual([]);
  }, 180_000);

  it('answers an unknown command with a non-zero exit, suggesting the nearest command when one is close', async () => {
    await expect(sdapi('frobnicate')).rejects.toMatchObject({
      code: 2,
      stderr: "sdapi: unknown command 'frobnicate'\nRun sdapi --help for every command.\n",
    });
    for (const [typed, meant] of [
      [['compnay', 'list'], 'companies list'],
      [['pool', 'list'], 'pools list'],
      [['seed', 'demoo'], 'seed demo'],
      [['migarte'], 'migrate'],
    ] as const) {
      await expect(sdapi(...typed)).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining(`Did you mean 'sdapi ${meant}'?`),
      });
    }
  }, 60_000);

  it('says the database is up to date when migrate has nothing to apply', async () => {
    await sdapi('migrate');
    expect((await sdapi('migrate')).stdout).toBe('Database up to date: no migration to apply.\n');
    expect(await json('migrate')).toEqual({ applied: [] });
  }, 30_000);

  it('shows a replenished pool as replenished, with a footnote saying what that is', async () => {
    await sdapi('seed', 'sandbox');
    const { stdout } = await sdapi('pools', 'list', '--sku', 'SANDBOX-ALWAYS-001');
    expect(stdout).toMatch(/SANDBOX-ALWAYS-001 .* replenished\*/);
    expect(stdout).toContain('* replenished: a sandbox pool that stores no keys and mints a synthetic one');
    const pinned = await sdapi('pools', 'list', '--sku', 'SANDBOX-LOWSTOCK-001');
    expect(pinned.stdout).toMatch(/3 \(pinned\)\*/);
    expect((await json('pools', 'list', '--sku', 'SANDBOX-ALWAYS-001')).data[0]).toMatchObject({
      replenishMode: 'infinite',
      availableKeys: 0,
    });
  }, 60_000);
});

describe("sdapi CLI finds the server's settings as the server does", () => {
  const bin = join(process.cwd(), 'bin/sdapi.js');
  const bare = { PATH: process.env.PATH ?? '' };

  it('refuses to create a database for a command that needs an existing one, and creates nothing', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'sdapi-cli-elsewhere-'));
    const failed = await run(
      process.execPath,
      [
        bin,
        'users',
        'invite',
        '--company',
        '00000000-0000-4000-8000-000000000000',
        '--email',
        'a@b.example',
        '--role',
        'owner',
      ],
      { env: bare, cwd: elsewhere },
    ).catch((err: { code: number; stderr: string }) => err);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      `there is no database at ${join(elsewhere, 'data/sdapi.sqlite')}`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  }, 60_000);

  it('reads DATA_DIR and PORT from a .env file in its working directory, under the environment', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sdapi-cli-env-'));
    writeFileSync(join(home, '.env'), `DATA_DIR=${join(home, 'state')}\nPORT=9123\n`);
    const inHome = (...args: string[]) =>
      run(process.execPath, [bin, ...args, '--json'], { env: bare, cwd: home });
    const company = JSON.parse((await inHome('company', 'create', '--name', 'Env Store')).stdout);
    expect(existsSync(join(home, 'state/sdapi.sqlite'))).toBe(true);
    const invite = JSON.parse(
      (
        await inHome(
          'users',
          'invite',
          '--company',
          company.id,
          '--email',
          'owner@env.example',
          '--role',
          'owner',
        )
      ).stdout,
    );
    expect(invite.link).toMatch(/^http:\/\/localhost:9123\/console\/invite#/);
    const overridden = await run(
      process.execPath,
      [
        bin,
        'users',
        'invite',
        '--company',
        company.id,
        '--email',
        'dev@env.example',
        '--role',
        'developer',
        '--json',
      ],
      { env: { ...bare, PUBLIC_URL: 'https://console.env.example' }, cwd: home },
    );
    expect(JSON.parse(overridden.stdout).link).toMatch(/^https:\/\/console\.env\.example\/console\/invite#/);
  }, 60_000);
});
