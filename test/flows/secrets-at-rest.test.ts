import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { alwaysOrder, post, US_SALE } from '../checkout.js';
import { makeSeller } from '../factories.js';
import { ENGINE, type TestApp, useTestApp } from '../harness.js';
import { call } from '../route-contract.js';

const t = useTestApp();

function binaryText(bytes: Buffer): string {
  const plain = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return `${plain.toString('utf8')}|${plain.toString('latin1')}`;
}

/** Every row of every table of the app's database (its own schema on PostgreSQL), as text. */
async function dumpEveryTable(app: TestApp): Promise<{ tables: string[]; text: string }> {
  const names =
    ENGINE === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(app.ctx.db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(app.ctx.db);
  const tables = names.rows.map((r) => r.name).sort();
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql`select * from ${sql.table(table)}`.execute(app.ctx.db);
    // Binary columns (export artifacts are gzip) are searched unpacked, as UTF-8 and Latin-1.
    const text = JSON.stringify(rows.rows, (_k, v) =>
      v?.type === 'Buffer' ? binaryText(Buffer.from(v.data)) : v,
    );
    parts.push(`${table}: ${text}`);
  }
  return { tables, text: parts.join('\n') };
}

const BUYER_IP = '203.0.113.77';
const CALLER_IP = '198.51.100.23';

describe('no secret is stored readable (finding 1)', () => {
  it('API key tokens, game keys and buyer IPs appear in no table after idempotent requests that return them', async () => {
    const seller = await makeSeller(t);
    const idem = (key: string) => ({ ...seller.auth, 'idempotency-key': key });
    const tokens: string[] = [];
    const gameKeys: string[] = [];

    for (let i = 0; i < 3; i++) {
      const created = await call(t, {
        method: 'POST',
        url: '/api/seller/v1/keys',
        headers: idem(`create-${i}`),
        payload: { name: `k${i}` },
        remoteAddress: CALLER_IP,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      tokens.push(created.body.data.key);
      const rotated = await call(t, {
        method: 'POST',
        url: `/api/seller/v1/keys/${created.body.data.id}/rotate`,
        headers: idem(`rotate-${i}`),
        remoteAddress: CALLER_IP,
      });
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      tokens.push(rotated.body.data.key);
      // The replay still answers the very reply, opened from its sealed copy.
      const replay = await call(t, {
        method: 'POST',
        url: `/api/seller/v1/keys/${created.body.data.id}/rotate`,
        headers: idem(`rotate-${i}`),
      });
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.body.data.key).toBe(rotated.body.data.key);
    }

    const order = await post(
      t,
      seller,
      '/orders',
      alwaysOrder({ quantity: 2, integrationOrderContext: { ...US_SALE, consumerIp: BUYER_IP } }),
      { 'idempotency-key': 'order-1' },
    );
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    gameKeys.push(...order.body.data.keys);
    const allocations = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations?limit=100',
      headers: seller.auth,
    });
    const std = allocations.body.data.find((a: { skuCode: string }) => a.skuCode === 'SANDBOX-STD-001');
    const pull = await post(
      t,
      seller,
      '/keys/pull',
      { allocationId: std.id, quantity: 2, countryCode: 'US' },
      { 'idempotency-key': 'pull-1' },
    );
    expect(pull.status, JSON.stringify(pull.body)).toBe(200);
    gameKeys.push(...pull.body.data.keys);

    const { tables, text } = await dumpEveryTable(t);
    expect(tables).toContain('idempotency_records');
    expect(tables).toContain('game_keys');
    expect(tokens).toHaveLength(6);
    expect(gameKeys).toHaveLength(4);
    for (const token of tokens) expect(text, `token ${token.slice(0, 16)}…`).not.toContain(token);
    // The secret part alone (after the readable prefix) must not appear either.
    for (const token of tokens) expect(text).not.toContain(token.slice(-24));
    for (const key of gameKeys) expect(text, `game key ${key}`).not.toContain(key);
    expect(text).not.toContain(BUYER_IP);
    expect(text).not.toContain(CALLER_IP);

    const stored = await t.ctx.db
      .selectFrom('idempotency_records')
      .select(['idempotency_key', 'response_sealed'])
      .where('company_id', '=', seller.company.id)
      .execute();
    expect(stored).toHaveLength(8);
    expect(stored.every((r) => r.response_sealed === 1)).toBe(true);
  });
});
