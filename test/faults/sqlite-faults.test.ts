import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseConfigFrom } from '../../src/config.js';
import { fail } from '../../src/http/errors.js';
import { ENGINE, useTestApp } from '../harness.js';
import { productionOrder, productionScenario } from '../production.js';

// A full disk simulated with `PRAGMA max_page_count`: the database file may not grow.
describe.skipIf(ENGINE !== 'sqlite')('SQLite with a full disk', () => {
  const t = useTestApp();

  it('answers 503 STORE_UNAVAILABLE with nothing half-written; the same Idempotency-Key succeeds once space is back', async () => {
    const s = await productionScenario(t, { keyCount: 300, quantityLimit: 300 });
    const pages = Number(
      (await sql<{ page_count: number }>`pragma page_count`.execute(t.ctx.db)).rows[0]!.page_count,
    );
    await sql.raw(`pragma max_page_count = ${pages}`).execute(t.ctx.db);
    const order = (key: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/orders',
        headers: { ...s.seller.auth, 'idempotency-key': key },
        payload: body,
      });
    let full: { key: string; body: Record<string, unknown> } | null = null;
    const served: string[] = [];
    for (let i = 0; i < 250 && !full; i++) {
      const body = productionOrder(s);
      const response = await order(`full-${i}`, body);
      if (response.statusCode === 200) {
        served.push(body.orderReference as string);
        continue;
      }
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json().code).toBe('STORE_UNAVAILABLE');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      full = { key: `full-${i}`, body };
    }
    expect(full).not.toBeNull();
    const refused = full!;
    // Nothing of the refused order: no order row, no key sold beyond the orders answered 200.
    const stored = await t.ctx.db
      .selectFrom('orders')
      .select('order_reference')
      .where('sku_code', '=', s.skuCode)
      .execute();
    expect(stored.map((o) => o.order_reference).sort()).toEqual([...served].sort());
    const sold = await t.ctx.db
      .selectFrom('game_keys')
      .select('id')
      .where('pool_id', '=', s.poolId)
      .where('order_id', 'is not', null)
      .execute();
    expect(sold).toHaveLength(served.length);

    // Space again: the same key runs once, and is then replayed.
    await sql.raw('pragma max_page_count = 1073741823').execute(t.ctx.db);
    const retried = await order(refused.key, refused.body);
    expect(retried.statusCode, retried.body).toBe(200);
    const replayed = await order(refused.key, refused.body);
    expect(replayed.headers['idempotency-replayed']).toBe('true');
    expect(replayed.json().data.orderId).toBe(retried.json().data.orderId);
    const after = await t.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('order_reference', '=', refused.body.orderReference as string)
      .execute();
    expect(after).toHaveLength(1);
  });
});

// A file database, and another connection (a backup tool, an operator's sqlite3 shell) holding
// the write lock past the busy timeout (5 s).
describe.skipIf(ENGINE !== 'sqlite')('SQLite locked by another connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-busy-'));
  const file = join(dir, 'sdapi.sqlite');
  const t = useTestApp({ database: databaseConfigFrom(`sqlite:${file}`, dir) }, (app) => {
    app.get('/api/seller/v1/test-unserializable', { config: { auth: 'none' } }, async () => {
      throw fail('NOT_FOUND', 'details that are not JSON', { count: 1n });
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 503 STORE_UNAVAILABLE while the lock is held, and serves the same key once it is released', async () => {
    const s = await productionScenario(t, { keyCount: 5, quantityLimit: 5 });
    const body = productionOrder(s);
    const order = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/orders',
        headers: { ...s.seller.auth, 'idempotency-key': 'busy-1' },
        payload: body,
      });
    const outside = new SqliteDatabase(file);
    outside.exec('begin immediate');
    try {
      const refused = await order();
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().code).toBe('STORE_UNAVAILABLE');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      outside.exec('rollback');
      outside.close();
    }
    const served = await order();
    expect(served.statusCode, served.body).toBe(200);
    const stored = await t.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('order_reference', '=', body.orderReference)
      .execute();
    expect(stored).toEqual([{ id: served.json().data.orderId }]);
  }, 20_000);

  it('an error whose details cannot be written as JSON answers 500 INTERNAL_ERROR in the envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/seller/v1/test-unserializable' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR', recoverable: false });
  });
});
