import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ProductionScenario } from '../../../../test/production.js';

/**
 * The order path writes in two ways: optimistically (on PostgreSQL one statement, or a
 * transaction its guarded grant update ends; the guarded update inside a transaction on SQLite)
 * and, when that misses, on the locked path. Both must write and answer the same. Here the same
 * random day (orders, replays, holds, hot-drop reservations and their commits, price changes,
 * a paused grant, a limit lowered to exhaustion, hot-drop mode switched) runs in two identical
 * worlds: one as the service runs it, one with every optimistic write switched off, so that
 * every order takes the locked path. The answers and the stored rows must be identical.
 */
const switchedOff = vi.hoisted(() => ({
  optimistic: false,
  /** Optimistic writes refused while switched off: none would mean the replacements never took effect. */
  refused: 0,
  off() {
    if (this.optimistic) this.refused += 1;
    return this.optimistic;
  },
}));

vi.mock('./one-statement.pg.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./one-statement.pg.js')>();
  return {
    ...real,
    oneStatementPool: (...args: Parameters<typeof real.oneStatementPool>) =>
      switchedOff.off() ? null : real.oneStatementPool(...args),
  };
});
vi.mock('../../../db/guarded-writes.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../db/guarded-writes.js')>();
  return {
    ...real,
    lastStatementEnds: (trx: Parameters<typeof real.lastStatementEnds>[0]) =>
      !switchedOff.off() && real.lastStatementEnds(trx),
  };
});
vi.mock('../../allocations/allocations.service.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../allocations/allocations.service.js')>();
  return {
    ...real,
    pullUnlessPromised: (...args: Parameters<typeof real.pullUnlessPromised>) =>
      switchedOff.off() ? Promise.resolve(undefined) : real.pullUnlessPromised(...args),
    pullReserved: (...args: Parameters<typeof real.pullReserved>) =>
      switchedOff.off() ? Promise.resolve(undefined) : real.pullReserved(...args),
  };
});

// Test files share their worker's loaded modules (vitest.config.ts): modules an earlier file
// loaded would keep the real ones, so this file loads the service afresh, with the replacements
// above, and leaves neither the replacements nor its copies behind.
const REPLACED = [
  './one-statement.pg.js',
  '../../../db/guarded-writes.js',
  '../../allocations/allocations.service.js',
];
vi.resetModules();
afterAll(() => {
  for (const path of REPLACED) vi.doUnmock(path);
  vi.resetModules();
});
const { admin } = await import('../../../../test/admin.js');
const { ENGINE, useTestApp } = await import('../../../../test/harness.js');
const { commitBody, hotDropScenario, reserveBody, seller } = await import('../../../../test/hot-drop.js');
const { productionOrder } = await import('../../../../test/production.js');
const { call } = await import('../../../../test/route-contract.js');
const { carvedOf, keysInPool, pulledOn } = await import('../../../../test/stored.js');

const t = useTestApp();

/** What the days exercised, so that a day of refusals alone cannot pass for agreement. */
const seen = { written: new Set<string>(), refused: new Set<string>() };

type Op =
  | { kind: 'order'; quantity: number; stalePrice: boolean }
  | { kind: 'replay' }
  | { kind: 'hold'; quantity: number }
  | { kind: 'reserve'; quantity: number }
  | { kind: 'price' }
  | { kind: 'pause' }
  | { kind: 'limit'; headroom: number }
  | { kind: 'hotDrop' };

const quantity = fc.integer({ min: 1, max: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('order' as const), quantity, stalePrice: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'replay' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hold' as const), quantity }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reserve' as const), quantity }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'price' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pause' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('limit' as const), headroom: fc.integer({ min: 0, max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'hotDrop' as const }) },
);

/** What an answer says, without what differs between two worlds (ids, references, keys' text). */
function gist(res: Awaited<ReturnType<typeof call>>, what: string) {
  const data = res.body.data ?? {};
  if (res.status === 200) seen.written.add(what);
  else seen.refused.add(res.body.code);
  const details = res.body.details ?? {};
  return {
    status: res.status,
    code: res.body.code ?? null,
    reason: details.reason ?? null,
    available: details.available ?? null,
    keys: Array.isArray(data.keys) ? data.keys.length : null,
    quantity: data.quantity ?? null,
    unitPriceCents: data.unitPriceCents ?? null,
  };
}

/** Runs one day in a fresh world; every answer's gist, then what the world stored. */
async function runDay(ops: Op[]) {
  const s = await hotDropScenario(t, { keyCount: 12, quantityLimit: 7, reservationMaxQuantity: 3 });
  await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: false, lowStockThreshold: 3 });
  await admin(t, 'PATCH', `/companies/${s.sellerId}`, { checkoutHoldEnabled: true });
  const world = { price: 5999, paused: false, hotDrop: false, last: null as Record<string, unknown> | null };
  const answers: ReturnType<typeof gist>[] = [];
  const post = (url: string, payload: Record<string, unknown>) =>
    call(t, { method: 'POST', url: `/api/seller/v1${url}`, headers: seller(s), payload });
  for (const [i, step] of ops.entries()) {
    const reference = `day-${i}`;
    switch (step.kind) {
      case 'order': {
        const price = step.stalePrice ? (world.price === 5999 ? 6499 : 5999) : world.price;
        world.last = productionOrder(s, {
          quantity: step.quantity,
          orderReference: reference,
          expectedUnitPriceCents: price,
        });
        answers.push(gist(await post('/orders', world.last), 'order'));
        break;
      }
      case 'replay':
        if (world.last) answers.push(gist(await post('/orders', world.last), 'replay'));
        break;
      case 'hold': {
        const hold = await post('/orders/hold', {
          skuCode: s.skuCode,
          quantity: step.quantity,
          countryCode: 'US',
          orderReference: reference,
        });
        answers.push(gist(hold, 'hold'));
        if (hold.status !== 200) break;
        const body = productionOrder(s, {
          quantity: step.quantity,
          orderReference: reference,
          expectedUnitPriceCents: world.price,
          checkoutHoldId: hold.body.data.holdId,
        });
        answers.push(gist(await post('/orders', body), 'held order'));
        break;
      }
      case 'reserve': {
        const reserved = await post(
          '/orders/reserve',
          reserveBody(s, {
            quantity: step.quantity,
            orderReference: reference,
            expectedUnitPriceCents: world.price,
          }),
        );
        answers.push(gist(reserved, 'reservation'));
        if (reserved.status === 200) {
          answers.push(
            gist(await post('/orders/commit', commitBody(s, reserved.body.data.reservationId)), 'commit'),
          );
        }
        break;
      }
      case 'price':
        world.price = world.price === 5999 ? 6499 : 5999;
        await admin(t, 'PUT', `/releases/${s.releaseId}/prices`, {
          countryCode: 'US',
          currencyCode: 'USD',
          listPriceCents: world.price,
        });
        break;
      case 'pause':
        world.paused = !world.paused;
        await admin(t, 'PATCH', `/allocations/${s.allocationId}`, {
          status: world.paused ? 'paused' : 'active',
        });
        break;
      case 'limit':
        await admin(t, 'PATCH', `/allocations/${s.allocationId}`, {
          quantityLimit:
            (await pulledOn(t, s.allocationId)) + (await carvedOf(t, s.allocationId)) + step.headroom,
        });
        break;
      case 'hotDrop':
        world.hotDrop = !world.hotDrop;
        await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: world.hotDrop });
        break;
    }
  }
  return { answers, stored: await storedOf(s) };
}

/** The world's rows, without ids, references and times. */
async function storedOf(s: ProductionScenario) {
  const db = t.ctx.db;
  const orders = await db
    .selectFrom('orders')
    .select(['kind', 'delivery', 'quantity', 'pulled', 'unit_price_cents', 'currency_code'])
    .where('allocation_id', '=', s.allocationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const sales = await db
    .selectFrom('sale_lines')
    .select((eb) => [eb.fn.countAll<number>().as('lines'), eb.fn.sum<number>('quantity').as('units')])
    .where('seller_company_id', '=', s.sellerId)
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('outbox_events')
    .select(['event_type', 'payload'])
    .where('company_id', '=', s.sellerId)
    .where('event_type', 'like', 'allocation.%')
    .orderBy('created_at_us')
    .orderBy('event_id')
    .execute();
  return {
    orders,
    sales: { lines: Number(sales.lines), units: Number(sales.units ?? 0) },
    pulled: await pulledOn(t, s.allocationId),
    carved: await carvedOf(t, s.allocationId),
    sold: await keysInPool(t, s.poolId, 'sold'),
    capacityEvents: events.map((e) => ({ type: e.event_type, remaining: JSON.parse(e.payload).remaining })),
  };
}

describe(`the two write paths agree (${ENGINE})`, () => {
  it('answers and stores the same whether each order writes optimistically or on the locked path', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 12 }), async (ops) => {
        switchedOff.optimistic = false;
        const asRun = await runDay(ops);
        switchedOff.optimistic = true;
        try {
          const locked = await runDay(ops);
          expect(locked).toEqual(asRun);
        } finally {
          switchedOff.optimistic = false;
        }
      }),
      { numRuns: 20, seed: 46_044 },
    );
    expect(switchedOff.refused).toBeGreaterThan(0);
    expect([...seen.written].sort()).toEqual([
      'commit',
      'held order',
      'hold',
      'order',
      'replay',
      'reservation',
    ]);
    expect([...seen.refused]).toEqual(
      expect.arrayContaining([
        'CATALOG_PRICE_MISMATCH',
        'NO_AVAILABLE_KEYS',
        'HOT_DROP_NOT_ENABLED',
        'FORBIDDEN',
      ]),
    );
  }, 240_000);
});
