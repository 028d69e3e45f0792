import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE, useTestApp } from '../../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../../test/production.js';
import { call } from '../../../../test/route-contract.js';

const t = useTestApp();

const lockCycleRetries = async () => (await t.ctx.metrics.orderLockCycleRetries.get()).values[0]?.value ?? 0;

/** Waits until some connection waits on a lock `holder` (a backend pid) holds. */
async function untilBlockedBy(holder: number) {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
      where ${holder}::int = any(pg_blocking_pids(pid))`.execute(t.ctx.db);
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no connection came to wait on backend ${holder}`);
}

/**
 * A lock cycle the database breaks by rolling the order back (docs/checkout.md, "Lock order").
 * Another connection holds the grant's row, so the one-statement order (keyed: its claim row
 * locked first, then its key claimed) waits on it; that connection then asks for the order's
 * claim row. PostgreSQL rolls the order back with 40P01 (the other connection's own
 * deadlock_timeout is set long, so it is the order that meets the cycle), and the order runs
 * again once the grant is free.
 */
describe.skipIf(ENGINE !== 'postgres')('an order rolled back to break a lock cycle (PostgreSQL)', () => {
  it('runs again and answers 200, its key sold once', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    const idempotencyKey = `cycle-${Math.random().toString(36).slice(2)}`;
    const before = await lockCycleRetries();

    let placing: ReturnType<typeof call> | undefined;
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`set local deadlock_timeout = '10s'`.execute(trx);
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      await sql`select 1 from allocations where id = ${s.allocationId} for no key update`.execute(trx);
      placing = call(t, {
        method: 'POST',
        url: '/api/seller/v1/orders',
        headers: { ...s.seller.auth, 'idempotency-key': idempotencyKey },
        payload: productionOrder(s),
      });
      await untilBlockedBy(rows[0]!.pid);
      await sql`select 1 from idempotency_records where idempotency_key = ${idempotencyKey} for share`.execute(
        trx,
      );
    });
    const placed = await placing!;

    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data.keys).toHaveLength(1);
    expect(await lockCycleRetries()).toBe(before + 1);
    const sold = await t.ctx.db
      .selectFrom('game_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pool_id', '=', s.poolId)
      .where('state', '=', 'sold')
      .executeTakeFirstOrThrow();
    expect(Number(sold.n)).toBe(1);
  });
});
