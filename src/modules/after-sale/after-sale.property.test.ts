import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { LENIENT_POLICY, order, SANDBOX_LINES, setPolicy } from '../../../test/after-sale.js';
import { post, ref } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { listActivity } from '../finance/activity.repo.js';
import { activityCsv, activityView } from '../finance/activity.service.js';
import { saleLineView } from '../finance/api-sales.service.js';
import { listSaleLines } from '../finance/sales-read.repo.js';
import { financeTotals, statementBuckets } from '../finance/totals.js';

const t = useTestApp();

const LINES = SANDBOX_LINES;
type Currency = keyof typeof LINES;

type Action =
  | { kind: 'order'; currency: Currency; quantity: number; deferred: boolean }
  | { kind: 'refund' | 'chargeback' | 'return'; picks: number[] }
  | { kind: 'reinstate'; pick: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constant('order' as const),
    currency: fc.constantFrom<Currency>('USD', 'EUR'),
    quantity: fc.integer({ min: 1, max: 3 }),
    deferred: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('refund' as const, 'chargeback' as const, 'return' as const),
    picks: fc.uniqueArray(fc.nat(40), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('reinstate' as const), pick: fc.nat(10) }),
);

interface ModelKey {
  currency: Currency;
  state: 'sold' | 'quarantined' | 'available';
  revealed: boolean;
  adjusted: boolean;
}

/** What the ledger must hold, computed from the actions alone, in integers. */
class Model {
  keys = new Map<string, ModelKey>();
  net: Record<Currency, number> = { USD: 0, EUR: 0 };
  chargebacks: { refundId: string; keyIds: string[]; reinstated: boolean }[] = [];
  price = (k: ModelKey) => LINES[k.currency].expectedUnitPriceCents;
}

async function run(seller: TestSeller, model: Model, a: Action) {
  const ids = [...model.keys.keys()];
  if (a.kind === 'order') {
    const placed = await order(t, seller, {
      ...LINES[a.currency],
      quantity: a.quantity,
      orderReference: ref('prop'),
      immediateFulfilment: !a.deferred,
    });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    for (const id of placed.keyIds)
      model.keys.set(id, { currency: a.currency, state: 'sold', revealed: !a.deferred, adjusted: false });
    model.net[a.currency] += LINES[a.currency].expectedUnitPriceCents * a.quantity;
    return;
  }
  if (a.kind === 'reinstate') {
    const chargeback = model.chargebacks[a.pick % Math.max(1, model.chargebacks.length)];
    if (!chargeback) return;
    const result = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/refunds/${chargeback.refundId}/reinstate`,
      headers: adminHeaders,
    });
    expect(result.statusCode).toBe(chargeback.reinstated ? 422 : 200);
    if (chargeback.reinstated) return;
    chargeback.reinstated = true;
    for (const id of chargeback.keyIds) {
      const key = model.keys.get(id)!;
      key.state = 'sold';
      model.net[key.currency] += model.price(key);
    }
    return;
  }
  if (ids.length === 0) return;
  const keyIds = [...new Set(a.picks.map((p) => ids[p % ids.length]!))];
  const keys = keyIds.map((id) => model.keys.get(id)!);
  const allowed = keys.every((k) => k.state === 'sold' && !k.adjusted);
  const result =
    a.kind === 'return'
      ? await post(t, seller, '/keys/return', { keyIds, reason: 'property' })
      : await post(t, seller, '/refunds', {
          type: a.kind,
          [a.kind === 'refund' ? 'refundReference' : 'chargebackReference']: ref(a.kind),
          keyIds,
        });
  expect(result.status, JSON.stringify(result.body)).toBe(allowed ? 200 : 422);
  if (!allowed) return;
  for (const key of keys) {
    key.adjusted = true;
    key.state = a.kind === 'return' && !key.revealed ? 'available' : 'quarantined';
    model.net[key.currency] -= model.price(key);
  }
  if (a.kind === 'chargeback')
    model.chargebacks.push({ refundId: result.body.data.refundId, keyIds, reinstated: false });
}

async function checkLedger(sellerId: string, model: Model) {
  const lines = await t.ctx.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .execute();
  for (const currency of ['USD', 'EUR'] as const) {
    const mine = lines.filter((l) => l.currency_code === currency);
    for (const l of mine) {
      for (const v of [l.quantity, l.sale_price_cents, l.initial_sale_price_cents, l.wholesale_cents])
        expect(Number.isSafeInteger(v)).toBe(true);
    }
    const sales = mine.filter((l) => l.entry_type === 'sale').reduce((s, l) => s + l.sale_price_cents, 0);
    const reversals = mine
      .filter((l) => l.entry_type === 'sale_reversal')
      .reduce((s, l) => s - l.sale_price_cents, 0);
    expect(sales - reversals).toBe(model.net[currency]);
    expect(mine.reduce((s, l) => s + l.sale_price_cents, 0)).toBe(model.net[currency]);
  }
  await checkExactReversals(sellerId);
  for (const bucket of await statementBuckets(t.ctx.db, { sellerId: sellerId, environment: 'sandbox' })) {
    const currency = bucket.currencyCode as Currency;
    expect(bucket.netSalesCents).toBe(model.net[currency]);
    expect(bucket.grossSalesCents - bucket.refundedCents + bucket.reinstatedCents).toBe(bucket.netSalesCents);
  }
  const ids = [...model.keys.keys()];
  if (ids.length === 0) return;
  const stored = await t.ctx.db
    .selectFrom('game_keys')
    .select(['id', 'state'])
    .where('id', 'in', ids)
    .execute();
  const quarantinedRows = await t.ctx.db
    .selectFrom('refund_keys')
    .select('key_id')
    .where('seller_company_id', '=', sellerId)
    .where('outcome', '=', 'quarantined')
    .where('reinstated_at', 'is', null)
    .execute();
  const inQuarantine = new Set(quarantinedRows.map((r) => r.key_id));
  for (const k of stored) {
    expect(k.state).toBe(model.keys.get(k.id)!.state);
    expect(k.state === 'available' && inQuarantine.has(k.id)).toBe(false);
    expect(inQuarantine.has(k.id)).toBe(k.state === 'quarantined');
  }
}

/** `part` keys' share of a whole line's amount, negated: exact, a line is unit x quantity. */
const negatedShare = (amount: number | null, quantity: number, part: number) =>
  amount === null ? null : 0 - (amount / quantity) * part;

/**
 * Every row that undoes another, as the seller reads it (GET /finance/api-sales, GET /activity
 * and its CSV): each money field the negation of the row it undoes (its share of the keys), and
 * each statement bucket the sum of its rows, to the cent.
 */
async function checkExactReversals(sellerId: string) {
  const scope = { sellerId, environment: 'sandbox' };
  const rows = (await listSaleLines(t.ctx.db, { ...scope, limit: 1000 })).map(saleLineView);
  const byId = new Map(rows.map((r) => [r.transactionId, r]));
  for (const row of rows) {
    if (!row.reversesTransactionId) continue;
    const undone = byId.get(row.reversesTransactionId)!;
    expect(Math.sign(row.quantity)).toBe(-Math.sign(undone.quantity));
    const part = Math.abs(row.quantity);
    const q = Math.abs(undone.quantity);
    expect(row.salePriceCents).toBe(negatedShare(undone.salePriceCents, q, part));
    expect(row.initialSalePriceCents).toBe(negatedShare(undone.initialSalePriceCents, q, part));
    expect(row.wholesaleCents).toBe(negatedShare(undone.wholesaleCents, q, part));
    expect(row.unitPriceCents).toBe(undone.unitPriceCents);
    for (const field of ['grossMinor', 'vatMinor', 'netMinor'] as const) {
      const mine = row.settlement?.[field] as number | null;
      const theirs = undone.settlement?.[field] as number | null;
      expect(mine, field).toBe(theirs === null || theirs === undefined ? theirs : 0 - theirs);
    }
  }
  const sum = (pick: (r: (typeof rows)[number]) => boolean, value: (r: (typeof rows)[number]) => number) =>
    rows.filter(pick).reduce((total, r) => total + value(r), 0);
  for (const bucket of await financeTotals(t.ctx.db, scope, 0, Number.MAX_SAFE_INTEGER)) {
    const mine = (r: (typeof rows)[number]) => r.currencyCode === bucket.currencyCode;
    const sales = (r: (typeof rows)[number]) => mine(r) && r.entryType === 'sale';
    expect(bucket.grossSalesCents).toBe(
      sum(
        (r) => sales(r) && !r.reversesTransactionId,
        (r) => r.salePriceCents,
      ),
    );
    expect(bucket.reinstatedCents).toBe(
      sum(
        (r) => sales(r) && !!r.reversesTransactionId,
        (r) => r.salePriceCents,
      ),
    );
    expect(bucket.refundedCents).toBe(
      0 -
        sum(
          (r) => mine(r) && r.entryType === 'sale_reversal',
          (r) => r.salePriceCents,
        ),
    );
    expect(bucket.netSalesCents).toBe(sum(mine, (r) => r.salePriceCents));
    expect(bucket.keysReversed).toBe(
      0 -
        sum(
          (r) => mine(r) && r.quantity < 0,
          (r) => r.quantity,
        ),
    );
    for (const owed of bucket.wholesaleOwed) {
      expect(owed.amountCents).toBe(
        sum(
          (r) => mine(r) && r.wholesaleCurrencyCode === owed.currencyCode,
          (r) => r.wholesaleCents ?? 0,
        ),
      );
    }
  }
  // Activity: a refund's or chargeback's economics are the negation of the sale's, in the view
  // and in the CSV alike, and the signed sale amounts sum to the net of the rows.
  const entries = (await listActivity(t.ctx.db, scope, 1000)).map(activityView);
  for (const e of entries) {
    if (e.kind !== 'refund' && e.kind !== 'chargeback') continue;
    const sale = entries.find((s) => s.kind === 'sale' && s.orderId === e.orderId)!;
    const perKey = (sale.economics.saleMinor ?? 0) / sale.quantity;
    expect(e.economics.saleMinor).toBe(0 - perKey * e.quantity);
    expect(e.economics.signedSaleMinor).toBe(e.economics.saleMinor);
    expect(e.economics.wholesaleMinor).toBe(
      sale.economics.wholesaleMinor === null
        ? null
        : -(sale.economics.wholesaleMinor / sale.quantity) * e.quantity,
    );
  }
  const csv = await text(activityCsv(t.ctx, scope));
  const [header, ...records] = csv.trim().split('\r\n');
  const column = (name: string) => cellsOf(header!).indexOf(name);
  for (const record of records) {
    const cells = cellsOf(record);
    const entry = entries.find((e) => e.entryId === cells[column('entryId')])!;
    expect(cells[column('saleMinor')]).toBe(String(entry.economics.saleMinor ?? ''));
    expect(cells[column('signedSaleMinor')]).toBe(String(entry.economics.signedSaleMinor ?? ''));
    expect(cells[column('wholesaleMinor')]).toBe(String(entry.economics.wholesaleMinor ?? ''));
  }
  for (const currency of new Set(rows.map((r) => r.currencyCode))) {
    expect(
      entries
        .filter((e) => e.economics.currencyCode === currency && e.kind !== 'pull')
        .reduce((total, e) => total + (e.economics.signedSaleMinor ?? 0), 0),
    ).toBe(
      sum(
        (r) => r.currencyCode === currency,
        (r) => r.salePriceCents,
      ),
    );
  }
}

/** The fields of one RFC 4180 record (quoted fields may hold commas and doubled quotes). */
const cellsOf = (record: string) =>
  [...record.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) =>
    m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replaceAll('""', '"') : m[1]!,
  );

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe(`after-sale ledger property (${ENGINE})`, () => {
  it('per currency, sales minus reversals is what the rows sum to; no key both in stock and quarantined', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 12 }), async (actions) => {
        const seller = await makeSeller(t);
        const model = new Model();
        for (const a of [
          { kind: 'order', currency: 'USD', quantity: 2, deferred: true } as Action,
          ...actions,
        ]) {
          await run(seller, model, a);
        }
        await checkLedger(seller.company.id, model);
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
