import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { claimableKeys, claimedIds } from '../../src/modules/inventory/claims.repo.js';
import { admin } from '../admin.js';
import { alwaysOrder } from '../checkout.js';
import { makeSeller } from '../factories.js';
import { ENGINE, useTestApp } from '../harness.js';
import { productionOrder, productionScenario } from '../production.js';
import { useAlternatingApps } from '../second-app.js';

const t = useTestApp();
const CLIENTS = 60;

const appFor = useAlternatingApps(t, CLIENTS);

async function concurrently(
  count: number,
  request: (i: number) => { url: string; headers: Record<string, string>; body: unknown },
) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const r = request(i);
      const response = await appFor(i).inject({
        method: 'POST',
        url: r.url,
        headers: r.headers,
        payload: r.body as Record<string, unknown>,
      });
      return { status: response.statusCode, body: response.json() };
    }),
  );
}

describe(`checkout under ${CLIENTS} concurrent clients (${ENGINE})`, () => {
  it('never pulls beyond the allocation limit, never delivers a key twice, never half-fulfils', async () => {
    const s = await productionScenario(t, { keyCount: 80, quantityLimit: 40 });
    const results = await concurrently(CLIENTS, (i) => ({
      url: '/api/seller/v1/orders',
      headers: s.seller.auth,
      body: productionOrder(s, { quantity: (i % 3) + 1 }),
    }));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused) expect(r.body.code).toBe('NO_AVAILABLE_KEYS');
    for (const r of ok) expect(r.body.data.keys).toHaveLength(r.body.data.quantity);
    const delivered = ok.flatMap((r) => r.body.data.keys as string[]);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(delivered.length).toBeLessThanOrEqual(40);
    // Nothing was refused while it could have been served: capacity only shrinks, so every
    // refused quantity exceeds what is left at the end.
    const left = 40 - delivered.length;
    for (const [i, r] of results.entries()) if (r.status !== 200) expect((i % 3) + 1).toBeGreaterThan(left);
    const allocation = await t.ctx.db
      .selectFrom('allocations')
      .selectAll()
      .where('id', '=', s.allocationId)
      .executeTakeFirstOrThrow();
    const sold = await t.ctx.db
      .selectFrom('game_keys')
      .select('order_id')
      .where('pool_id', '=', s.poolId)
      .where('state', '=', 'sold')
      .execute();
    const orders = await t.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('seller_company_id', '=', s.sellerId)
      .execute();
    expect(allocation.quantity_pulled).toBe(delivered.length);
    expect(sold).toHaveLength(delivered.length);
    expect(orders).toHaveLength(ok.length);
    const sales = await t.ctx.db
      .selectFrom('sale_lines')
      .selectAll()
      .where('seller_company_id', '=', s.sellerId)
      .execute();
    expect(sales.reduce((n, l) => n + l.quantity, 0)).toBe(delivered.length);
  });

  it('never pulls more keys than the pool holds', async () => {
    const s = await productionScenario(t, { keyCount: 25, quantityLimit: 1000 });
    const results = await concurrently(CLIENTS, () => ({
      url: '/api/seller/v1/orders',
      headers: s.seller.auth,
      body: productionOrder(s),
    }));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(25);
    expect(new Set(ok.map((r) => r.body.data.keys[0])).size).toBe(25);
    expect(results.filter((r) => r.status === 409)).toHaveLength(CLIENTS - 25);
  });

  it('fulfils one order for one reference sent by every client at once, each answered with its keys', async () => {
    const s = await productionScenario(t, { keyCount: 10 });
    const body = productionOrder(s, { quantity: 2 });
    const results = await concurrently(CLIENTS, () => ({
      url: '/api/seller/v1/orders',
      headers: s.seller.auth,
      body,
    }));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => JSON.stringify(r.body.data.keys))).size).toBe(1);
    const orders = await t.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('seller_company_id', '=', s.sellerId)
      .execute();
    expect(orders).toHaveLength(1);
  });

  it('never holds more than exists', async () => {
    const seller = await makeSeller(t);
    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { checkoutHoldEnabled: true });
    const results = await concurrently(CLIENTS, (i) => ({
      url: '/api/seller/v1/orders/hold',
      headers: { ...seller.auth, 'idempotency-key': `hold-${i}` },
      body: { skuCode: 'SANDBOX-STD-001', quantity: 1, countryCode: 'US', orderReference: `h-${i}` },
    }));
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'SOLD_OUT')).toBe(true);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/seller/v1/orders',
      headers: seller.auth,
      payload: alwaysOrder({ skuCode: 'SANDBOX-STD-001' }),
    });
    expect(plain.json().code).toBe('NO_AVAILABLE_KEYS');
  });
});

describe.runIf(ENGINE === 'postgres')('the key claim query on PostgreSQL', () => {
  // A pool that has been selling: thousands of sold keys, older (lower ids) than the many still
  // available. With statistics, a claim ordered by the primary key's order would walk the sold
  // keys through game_keys_pkey on every claim.
  async function soldPool() {
    const s = await productionScenario(t, { keyCount: 1 });
    await sql`
      insert into game_keys (id, pool_id, sku_id, ciphertext, fingerprint, state, order_id, sold_at, created_at)
      select '00000000-' || right(${s.poolId}, 12) || lpad(n::text, 8, '0'), ${s.poolId}, ${s.skuId}, 'x',
        'fp-' || n || '-' || ${s.poolId}, case when n <= 8000 then 'sold' else 'available' end,
        null, case when n <= 8000 then 0 end, 0
      from generate_series(1, 60000) as n`.execute(t.ctx.db);
    await sql`analyze game_keys`.execute(t.ctx.db);
    return s;
  }

  it('reads the partial claim index after ANALYZE, however many keys were sold', async () => {
    const s = await soldPool();
    const compiled = claimableKeys(t.ctx.db, s.poolId, 5).compile();
    const plan = await sql
      .raw<{ 'QUERY PLAN': string }>(
        `explain ${compiled.sql.replace(/\$(\d+)/g, (_, i) => {
          const value = compiled.parameters[Number(i) - 1];
          return typeof value === 'number' ? String(value) : `'${String(value)}'`;
        })}`,
      )
      .execute(t.ctx.db);
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('game_keys_claim');
    expect(compiled.sql).toContain('for update skip locked');
    expect(text).toContain('LockRows');
    expect(text).not.toMatch(/Seq Scan on game_keys/);
    expect(text).not.toContain('game_keys_pkey');
  });

  // A prepared statement's generic plan does not know the limit: with `id in (subquery)` it
  // guessed a tenth of the pool and hashed a sequential scan of every key (30 ms a claim).
  it('updates the claimed keys through the primary key in a generic plan too', async () => {
    const s = await soldPool();
    const claim = t.ctx.db
      .updateTable('game_keys')
      .set({ state: 'sold' })
      .where(claimedIds(t.ctx.db, s.poolId, 1))
      .returning('id')
      .compile();
    const text = await t.ctx.db.connection().execute(async (c) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(c);
      await sql.raw(`prepare generic_claim as ${claim.sql}`).execute(c);
      const values = claim.parameters.map((v) => (typeof v === 'number' ? String(v) : `'${String(v)}'`));
      const plan = await sql
        .raw<{ 'QUERY PLAN': string }>(`explain execute generic_claim(${values.join(', ')})`)
        .execute(c);
      await sql`deallocate generic_claim`.execute(c);
      await sql`reset plan_cache_mode`.execute(c);
      return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(text).toContain('game_keys_pkey');
    expect(text).toContain('game_keys_claim');
    expect(text).not.toMatch(/Seq Scan on game_keys/);
  });
});
