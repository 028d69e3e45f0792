import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { admin, buildCatalog } from '../../../test/admin.js';
import { useTestApp } from '../../../test/harness.js';
import { ROWS_PER_TRANSACTION as BATCH, importKeys } from './key-import.service.js';

const t = useTestApp();

async function newPool() {
  const c = await buildCatalog(t);
  return (await admin(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId })).id as string;
}

const stored = async (poolId: string) =>
  (
    await t.ctx.db
      .selectFrom('game_keys')
      .select('ciphertext')
      .where('pool_id', '=', poolId)
      .orderBy('id')
      .execute()
  ).map((r) => t.ctx.secrets!.open(r.ciphertext));

describe('key import', () => {
  it('reads a CSV by its key column, keeps file order, and reports bad lines by number', async () => {
    const poolId = await newPool();
    const csv =
      'order,key,note\n1,"KEY-A-001",x\n2,KEY-A-002,y\n3,,empty\n4,"KEY,WITH,COMMA",z\r\n5,KEY-A-003,w\n6,"KEY A 004",v\n';
    const summary = await importKeys(t.ctx, poolId, Readable.from(csv), { format: 'csv' });
    expect(summary).toEqual({
      poolId,
      linesRead: 7,
      imported: 4,
      duplicates: 0,
      rejected: 2,
      rejectedLines: [
        { line: 4, reason: 'empty key' },
        { line: 7, reason: 'whitespace inside the key' },
      ],
    });
    expect(await stored(poolId)).toEqual(['KEY-A-001', 'KEY-A-002', 'KEY,WITH,COMMA', 'KEY-A-003']);
  });

  it('skips keys already stored, in the same file and across imports and pools', async () => {
    const first = await newPool();
    const second = await newPool();
    await importKeys(t.ctx, first, Readable.from('DUP-1\nDUP-2\n'));
    const summary = await importKeys(t.ctx, second, Readable.from('DUP-2\nNEW-1\nNEW-1\nDUP-1\n'));
    expect(summary).toMatchObject({ imported: 1, duplicates: 3, rejected: 0 });
    expect(await stored(second)).toEqual(['NEW-1']);
  });

  it('streams a large file in transactions and stores every key once', async () => {
    const poolId = await newPool();
    const total = 2 * BATCH + BATCH / 4;
    const lines = Array.from({ length: total }, (_, i) => `BULK-${i.toString().padStart(6, '0')}`);
    const progress: number[] = [];
    const summary = await importKeys(t.ctx, poolId, Readable.from(lines.map((l) => `${l}\n`)), {
      onProgress: (s) => progress.push(s.imported),
    });
    expect(summary.imported).toBe(total);
    expect(progress).toEqual([BATCH, 2 * BATCH, total]);
    const count = await t.ctx.db
      .selectFrom('game_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pool_id', '=', poolId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(total);
  });

  it('skips repeats inside a batch sealed here, inside one sealed off the main thread, and across batches', async () => {
    const poolId = await newPool();
    const lines = Array.from({ length: BATCH }, (_, i) => `SEALED-${i}`);
    lines[1] = 'SEALED-0';
    lines.push('SEALED-2', 'SEALED-LAST-1', 'SEALED-LAST-1', 'SEALED-LAST-2');
    const summary = await importKeys(t.ctx, poolId, Readable.from(lines.map((l) => `${l}\n`)));
    expect(summary).toMatchObject({ linesRead: BATCH + 4, imported: BATCH + 1, duplicates: 3, rejected: 0 });
    const keys = await stored(poolId);
    expect(keys.length).toBe(BATCH + 1);
    expect(new Set(keys).size).toBe(BATCH + 1);
    expect(keys.slice(0, 2)).toEqual(['SEALED-0', 'SEALED-2']);
    expect(keys.slice(-2)).toEqual(['SEALED-LAST-1', 'SEALED-LAST-2']);
  });

  it('keeps the batches stored before a failure and says how many in the error', async () => {
    const poolId = await newPool();
    async function* failing() {
      for (let i = 0; i < BATCH + BATCH / 4; i++) yield `FAIL-${i}\n`;
      throw new Error('disk went away');
    }
    const error = await importKeys(t.ctx, poolId, Readable.from(failing())).catch((e) => e);
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', details: { summary: { imported: BATCH } } });
    expect(JSON.stringify(error.details)).not.toContain('disk went away');
    expect((await stored(poolId)).length).toBe(BATCH);
  });

  it('refuses an unknown pool with 404 and stores nothing', async () => {
    const result = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/pools/0190a1b2-0000-7000-8000-000000000000/keys',
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'text/plain' },
      payload: 'X-1\n',
    });
    expect(result.statusCode).toBe(404);
    expect(result.json().code).toBe('NOT_FOUND');
  });
});
