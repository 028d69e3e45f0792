import fc from 'fast-check';
import type { Selectable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { order, SANDBOX_LINES, setPolicy } from '../../../test/after-sale.js';
import { post, ref } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { uuidv7 } from '../../lib/ids.js';
import { claimFromPool } from '../inventory/claims.repo.js';
import { availableInPools, insertAvailableKeys } from '../inventory/inventory.repo.js';
import { quarantineKeys, restockKeys, unquarantineKeys } from '../inventory/key-custody.service.js';
import type { SaleLinesTable } from './finance.table.js';
import { keysPerDay } from './kept-totals.repo.js';
import { type CurrencyTotals, emptyTotals, financeTotals } from './totals.js';

/**
 * Totals kept beside the rows (migration 0024) against the rows themselves: after random sales,
 * refunds, chargebacks, returns and reinstatements spread over hours, days and months, every
 * figure of statements, summary (any span, to the millisecond) and usage equals the plain sum
 * of the rows, to the cent, and every pool's kept stock equals its available keys counted.
 */

const t = useTestApp({ testClock: true });

const LINES = SANDBOX_LINES;
type Currency = keyof typeof LINES;

type Action =
  | { kind: 'order'; currency: Currency; quantity: number }
  | { kind: 'refund' | 'chargeback' | 'return'; pick: number }
  | { kind: 'reinstate'; pick: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('order' as const),
    currency: fc.constantFrom<Currency>('USD', 'EUR'),
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constantFrom('refund' as const, 'chargeback' as const, 'return' as const),
    pick: fc.nat(40),
  }),
  fc.record({ kind: fc.constant('reinstate' as const), pick: fc.nat(10) }),
);
/** Seconds the clock moves before an action: within the hour, a few hours, days, or a month. */
const gap = fc.constantFrom(0, 7, 1_800, 4 * 3_600, 86_400 + 61, 26 * 86_400);
/**
 * Refunds stay allowed for the whole run (at most 11 steps of 26 days: 286 days), so that every
 * refund the steps ask for happens; a 30-day window refused a refund two month-long gaps after
 * its order.
 */
const WHOLE_RUN_POLICY = { refundableWithinDays: 365, requiresUnrevealedOrUnredeemed: false };

interface World {
  seller: TestSeller;
  keys: { id: string; adjusted: boolean }[];
  chargebacks: string[];
}

async function run(world: World, a: Action) {
  if (a.kind === 'order') {
    const placed = await order(t, world.seller, {
      ...LINES[a.currency],
      quantity: a.quantity,
      orderReference: ref('kept'),
      immediateFulfilment: false,
    });
    await setPolicy(t, placed.allocationId, WHOLE_RUN_POLICY);
    for (const id of placed.keyIds) world.keys.push({ id, adjusted: false });
    return;
  }
  if (a.kind === 'reinstate') {
    const refundId = world.chargebacks[a.pick % Math.max(1, world.chargebacks.length)];
    if (refundId) {
      await t.app.inject({
        method: 'POST',
        url: `/admin/v1/refunds/${refundId}/reinstate`,
        headers: adminHeaders,
      });
    }
    return;
  }
  const key = world.keys.filter((k) => !k.adjusted)[a.pick % Math.max(1, world.keys.length)];
  if (!key) return;
  const result =
    a.kind === 'return'
      ? await post(t, world.seller, '/keys/return', { keyIds: [key.id], reason: 'property' })
      : await post(t, world.seller, '/refunds', {
          type: a.kind,
          [a.kind === 'refund' ? 'refundReference' : 'chargebackReference']: ref(a.kind),
          keyIds: [key.id],
        });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  key.adjusted = true;
  if (a.kind === 'chargeback') world.chargebacks.push(result.body.data.refundId);
}

/** The figures of [from, to) summed from the rows alone, as financeTotals states them. */
function summedFromRows(lines: Selectable<SaleLinesTable>[], from: number, to: number): CurrencyTotals[] {
  const byCurrency = new Map<string, CurrencyTotals>();
  for (const l of lines.filter((l) => l.created_at >= from && l.created_at < to)) {
    const c = byCurrency.get(l.currency_code) ?? emptyTotals(l.currency_code);
    byCurrency.set(l.currency_code, c);
    const original = l.entry_type === 'sale' && l.reverses_transaction_id === null;
    const reinstatement = l.entry_type === 'sale' && l.reverses_transaction_id !== null;
    if (original) {
      c.grossSalesCents += l.sale_price_cents;
      c.saleCount += 1;
      c.keysSold += l.quantity;
    } else if (reinstatement) {
      c.reinstatedCents += l.sale_price_cents;
      c.reinstatementCount += 1;
    } else {
      c.refundedCents -= l.sale_price_cents;
      c.reversalCount += 1;
      c.keysReversed += Math.abs(l.quantity);
    }
    c.netSalesCents += l.sale_price_cents;
    if (l.wholesale_currency_code) {
      const owed = c.wholesaleOwed.find((w) => w.currencyCode === l.wholesale_currency_code);
      if (owed) owed.amountCents += l.wholesale_cents ?? 0;
      else
        c.wholesaleOwed.push({
          currencyCode: l.wholesale_currency_code,
          amountCents: l.wholesale_cents ?? 0,
        });
    }
  }
  return [...byCurrency.values()]
    .sort((a, b) => (a.currencyCode < b.currencyCode ? -1 : 1))
    .map((c) => ({
      ...c,
      wholesaleOwed: c.wholesaleOwed.sort((a, b) => (a.currencyCode < b.currencyCode ? -1 : 1)),
    }));
}

async function checkTotals(world: World, spans: [number, number][]) {
  const scope = { sellerId: world.seller.company.id, environment: 'sandbox' };
  const lines = await t.ctx.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('seller_company_id', '=', scope.sellerId)
    .execute();
  const first = Math.min(...lines.map((l) => l.created_at));
  const last = Math.max(...lines.map((l) => l.created_at)) + 1;
  // All time, and random spans over the rows' lifetime (any millisecond, so every edge is tried).
  const ranges: [number, number][] = [
    [0, Number.MAX_SAFE_INTEGER],
    ...spans.map(([a, b]): [number, number] => {
      const [x, y] = [first + Math.floor(a * (last - first)), first + Math.floor(b * (last - first))];
      return x <= y ? [x, y + 1] : [y, x + 1];
    }),
  ];
  for (const [from, to] of ranges) {
    expect(await financeTotals(t.ctx.db, scope, from, to), `[${from}, ${to})`).toEqual(
      summedFromRows(lines, from, to),
    );
  }

  const activity = await t.ctx.db
    .selectFrom('activity_entries')
    .select(['kind', 'quantity', 'created_at'])
    .where('seller_company_id', '=', scope.sellerId)
    .execute();
  const expectedKeys = new Map<number, number>();
  for (const a of activity.filter((a) => a.kind === 'sale' || a.kind === 'pull')) {
    const day = Math.floor(a.created_at / 86_400_000);
    expectedKeys.set(day, (expectedKeys.get(day) ?? 0) + a.quantity);
  }
  const days = [...expectedKeys.keys()];
  const kept = await keysPerDay(t.ctx.db, scope, Math.min(...days), Math.max(...days));
  expect(new Map([...kept].sort(([a], [b]) => a - b))).toEqual(
    new Map([...expectedKeys].sort(([a], [b]) => a - b)),
  );
}

/** Every pool's kept stock against its available keys counted row by row. */
async function checkStock() {
  const counted = await t.ctx.db
    .selectFrom('key_pools')
    .leftJoin('game_keys', (j) =>
      j.onRef('game_keys.pool_id', '=', 'key_pools.id').on('game_keys.state', '=', 'available'),
    )
    .select(['key_pools.id', (eb) => eb.fn.count<number>('game_keys.id').as('n')])
    .groupBy('key_pools.id')
    .execute();
  const kept = new Map(
    (
      await availableInPools(
        t.ctx.db,
        counted.map((c) => c.id),
      )
    ).map((r) => [r.pool_id, Number(r.n)]),
  );
  for (const pool of counted) expect(kept.get(pool.id) ?? 0, pool.id).toBe(Number(pool.n));
}

describe(`kept totals and stock equal the sums of their rows (${ENGINE})`, () => {
  it('after random sales, refunds, chargebacks, returns and reinstatements over hours, days and months', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(gap, action), { minLength: 1, maxLength: 10 }),
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
          {
            minLength: 3,
            maxLength: 6,
          },
        ),
        async (steps, spans) => {
          const world: World = { seller: await makeSeller(t), keys: [], chargebacks: [] };
          for (const [seconds, a] of [
            [0, { kind: 'order', currency: 'USD', quantity: 2 }] as const,
            ...steps,
          ]) {
            // One process: moving its clock is enough (the shared offset's one-second cache wait
            // of advanceShared, paid on every step, made this test run for minutes on PostgreSQL).
            t.ctx.testClock!.advance(seconds);
            await run(world, a);
          }
          await checkTotals(world, spans);
          await checkStock();
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);

  it('stock stays exact through an import (duplicates skipped), claims, returns, quarantines and a removal', async () => {
    const seller = await makeSeller(t);
    await order(t, seller, { ...LINES.USD, quantity: 1, orderReference: ref('stock') });
    const pool = await t.ctx.db
      .selectFrom('key_pools')
      .selectAll()
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const sealed = (i: number) => ({
      id: uuidv7(),
      ciphertext: `sealed-${i}`,
      fingerprint: `fp-${pool.id}-${i}`,
    });
    const stockOf = async () => Number((await availableInPools(t.ctx.db, [pool.id]))[0]?.n ?? 0);
    const before = await stockOf();
    expect(await insertAvailableKeys(t.ctx.db, pool, t.ctx.clock.now(), [0, 1, 2, 3, 4].map(sealed))).toBe(5);
    expect(await insertAvailableKeys(t.ctx.db, pool, t.ctx.clock.now(), [4, 5].map(sealed))).toBe(1);
    expect(await stockOf()).toBe(before + 6);
    await checkStock();
    const orderId = (await t.ctx.db.selectFrom('orders').select('id').executeTakeFirstOrThrow()).id;
    const claimed = await t.ctx.db
      .transaction()
      .execute((trx) => claimFromPool(trx, pool.id, 3, orderId, t.ctx.clock.now()));
    expect(await stockOf()).toBe(before + 3);
    await restockKeys(t.ctx.db, [claimed[0]!.id]);
    await quarantineKeys(t.ctx.db, [claimed[1]!.id]);
    await unquarantineKeys(t.ctx.db, [claimed[1]!.id]);
    await quarantineKeys(t.ctx.db, [claimed[2]!.id]);
    expect(await stockOf()).toBe(before + 4);
    await t.ctx.db.deleteFrom('game_keys').where('id', '=', claimed[0]!.id).execute();
    expect(await stockOf()).toBe(before + 3);
    await checkStock();
  });
});
