import { describe, expect, it } from 'vitest';
import { statementBuckets } from '../../src/modules/finance/totals.js';
import { LENIENT_POLICY, order, setPolicy } from '../after-sale.js';
import { makeSeller, type TestSeller } from '../factories.js';
import { ENGINE, useTestApp } from '../harness.js';
import { useAlternatingApps } from '../second-app.js';
import { pulledOn } from '../stored.js';

const t = useTestApp();
const CLIENTS = 50;

const appFor = useAlternatingApps(t, CLIENTS);

async function send(i: number, seller: TestSeller, url: string, body: unknown) {
  const response = await appFor(i).inject({
    method: 'POST',
    url: `/api/seller/v1${url}`,
    headers: seller.auth,
    payload: body as Record<string, unknown>,
  });
  return { status: response.statusCode, body: response.json() };
}

const reversalsOf = (sellerId: string) =>
  t.ctx.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('entry_type', '=', 'sale_reversal')
    .execute();

const title =
  ENGINE === 'postgres'
    ? 'after-sale exactly once under concurrency (PostgreSQL: two app instances, row locks)'
    : 'after-sale accounting under concurrent requests (SQLite: one process, serialised writer)';

describe(title, () => {
  it(`reverses each key once across ${CLIENTS} concurrent refunds of overlapping key sets`, async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 20 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const keys = placed.keyIds;
    // Request i and i + 25 share a reference and key set: one runs, the other replays it.
    const bodyOf = (i: number) => {
      const n = i % 25;
      return {
        type: 'refund',
        refundReference: `race-${placed.orderReference}-${n}`,
        keyIds: [keys[n % 20], keys[(n * 7 + 3) % 20], keys[(n * 3 + 11) % 20]].filter(
          (id, j, all) => all.indexOf(id) === j,
        ),
      };
    };
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => send(i, seller, '/refunds', bodyOf(i))),
    );
    for (const r of results) {
      if (r.status !== 200) {
        expect(r.body.code, JSON.stringify(r.body)).toBe('VALIDATION_FAILED');
        expect(r.body.details.keys.some((k: { reason: string }) => k.reason === 'already_refunded')).toBe(
          true,
        );
      }
    }
    for (let n = 0; n < 25; n++) {
      const [a, b] = [results[n]!, results[n + 25]!];
      if (a.status === 200 && b.status === 200) expect(a.body.data.refundId).toBe(b.body.data.refundId);
    }
    const won = new Map<string, string[]>();
    for (const r of results.filter((r) => r.status === 200))
      won.set(r.body.data.refundId, r.body.data.keyIds);
    const refundedKeys = [...won.values()].flat();
    expect(new Set(refundedKeys).size).toBe(refundedKeys.length);
    expect(won.size).toBeGreaterThan(0);

    const rows = await t.ctx.db
      .selectFrom('refund_keys')
      .select('key_id')
      .where('seller_company_id', '=', seller.company.id)
      .execute();
    expect(rows.map((r) => r.key_id).sort()).toEqual([...refundedKeys].sort());
    const reversals = await reversalsOf(seller.company.id);
    expect(reversals).toHaveLength(won.size);
    expect(reversals.reduce((sum, r) => sum + r.sale_price_cents, 0)).toBe(-1999 * refundedKeys.length);
    const states = await t.ctx.db
      .selectFrom('game_keys')
      .select(['id', 'state'])
      .where('id', 'in', keys)
      .execute();
    for (const k of states) expect(k.state).toBe(refundedKeys.includes(k.id) ? 'quarantined' : 'sold');
    expect(await statementBuckets(t.ctx.db, { sellerId: seller.company.id, environment: 'sandbox' })).toEqual(
      [
        {
          currencyCode: 'USD',
          grossSalesCents: 20 * 1999,
          refundedCents: refundedKeys.length * 1999,
          reinstatedCents: 0,
          netSalesCents: (20 - refundedKeys.length) * 1999,
        },
      ],
    );
  });

  it('lets exactly one of a refund and a return of the same key win, for every key', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, {
      skuCode: 'SANDBOX-STD-001',
      quantity: 20,
      immediateFulfilment: false,
    });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const pulledBefore = await pulledOn(t, placed.allocationId);
    const results = await Promise.all(
      placed.keyIds.flatMap((keyId, i) => [
        send(2 * i, seller, '/refunds', { type: 'refund', refundReference: `rr-${keyId}`, keyIds: [keyId] }),
        send(2 * i + 1, seller, '/keys/return', { keyIds: [keyId], reason: 'race' }),
      ]),
    );
    let returnedWins = 0;
    for (let i = 0; i < placed.keyIds.length; i++) {
      const [refunded, returned] = [results[2 * i]!, results[2 * i + 1]!];
      expect([refunded.status, returned.status].sort()).toEqual([200, 422]);
      if (returned.status === 200) returnedWins++;
    }
    const states = await t.ctx.db
      .selectFrom('game_keys')
      .select(['id', 'state'])
      .where('id', 'in', placed.keyIds)
      .execute();
    expect(states.filter((k) => k.state === 'available')).toHaveLength(returnedWins);
    expect(states.filter((k) => k.state === 'quarantined')).toHaveLength(20 - returnedWins);
    const reversals = await reversalsOf(seller.company.id);
    expect(reversals.reduce((sum, r) => sum - r.quantity, 0)).toBe(20);
    expect(reversals.reduce((sum, r) => sum + r.sale_price_cents, 0)).toBe(-20 * 1999);
    expect(await pulledOn(t, placed.allocationId)).toBe(pulledBefore - returnedWins);
  });
});
