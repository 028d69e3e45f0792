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
 * Sends a keyed request while another connection closes a lock cycle around it (docs/checkout.md,
 * "Lock order"): that connection holds the grant's row, the request (its claim row locked first,
 * then its keys claimed) comes to wait on it, and the connection then asks for the request's
 * claim row. PostgreSQL rolls the request's transaction back with 40P01 (the other connection's
 * own deadlock_timeout is set long, so it is the request that meets the cycle); the connection
 * then ends, and the grant is free for the request's next run.
 */
async function inLockCycle(
  allocationId: string,
  request: (idempotencyKey: string) => ReturnType<typeof call>,
) {
  const idempotencyKey = `cycle-${Math.random().toString(36).slice(2)}`;
  let sent: ReturnType<typeof call> | undefined;
  await t.ctx.db.transaction().execute(async (trx) => {
    await sql`set local deadlock_timeout = '10s'`.execute(trx);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    await sql`select 1 from allocations where id = ${allocationId} for no key update`.execute(trx);
    sent = request(idempotencyKey);
    await untilBlockedBy(rows[0]!.pid);
    await sql`select 1 from idempotency_records where idempotency_key = ${idempotencyKey} for share`.execute(
      trx,
    );
  });
  return sent!;
}

const soldIn = async (poolId: string) => {
  const sold = await t.ctx.db
    .selectFrom('game_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pool_id', '=', poolId)
    .where('state', '=', 'sold')
    .executeTakeFirstOrThrow();
  return Number(sold.n);
};

describe.skipIf(ENGINE !== 'postgres')('a write rolled back to break a lock cycle (PostgreSQL)', () => {
  it('an order (the one statement) runs again and answers 200, its key sold once', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    const before = await lockCycleRetries();
    const placed = await inLockCycle(s.allocationId, (idempotencyKey) =>
      call(t, {
        method: 'POST',
        url: '/api/seller/v1/orders',
        headers: { ...s.seller.auth, 'idempotency-key': idempotencyKey },
        payload: productionOrder(s),
      }),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data.keys).toHaveLength(1);
    expect(await lockCycleRetries()).toBe(before + 1);
    expect(await soldIn(s.poolId)).toBe(1);
  });

  it('a strict cart (one transaction) runs again and answers 200, each line sold once', async () => {
    const s = await productionScenario(t, { keyCount: 4 });
    const before = await lockCycleRetries();
    const placed = await inLockCycle(s.allocationId, (idempotencyKey) =>
      call(t, {
        method: 'POST',
        url: '/api/seller/v1/orders/bulk',
        headers: { ...s.seller.auth, 'idempotency-key': idempotencyKey },
        payload: { items: [productionOrder(s), productionOrder(s)] },
      }),
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.meta).toMatchObject({ strict: true, fulfilled: 2, failed: 0 });
    expect(await lockCycleRetries()).toBe(before + 1);
    expect(await soldIn(s.poolId)).toBe(2);
  });
});
