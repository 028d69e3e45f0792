import { uuidv7 } from '../src/lib/ids.js';
import { alwaysOrder, post, US_SALE } from './checkout.js';
import type { TestSeller } from './factories.js';
import type { TestApp } from './harness.js';
import { call } from './route-contract.js';

/** A sandbox EUR order of SANDBOX-EUR1-001 (100 cents a key in DE). */
export const euroOrder = (quantity = 1) => ({
  ...alwaysOrder({ skuCode: 'SANDBOX-EUR1-001', expectedUnitPriceCents: 100, quantity }),
  integrationOrderContext: {
    ...US_SALE,
    salesCountryCode: 'DE',
    currencyCode: 'EUR',
    salesPriceGrossMinor: 119 * quantity,
    salesTaxRatePercent: 19,
  },
});

/** Places an order through the API and returns the transactionId of its sale line. */
export async function placeSale(t: TestApp, seller: TestSeller, body: Record<string, unknown>) {
  const order = await post(t, seller, '/orders', body);
  if (order.status !== 200) throw new Error(`order failed: ${JSON.stringify(order.body)}`);
  const line = await t.ctx.db
    .selectFrom('sale_lines')
    .select('id')
    .where('order_id', '=', order.body.data.orderId)
    .executeTakeFirstOrThrow();
  return line.id;
}

/**
 * Writes what after-sale (src/modules/after-sale) writes for a refund or chargeback of a whole sale line: a
 * `sale_reversal` row with negated amounts (settlement included) naming the sale, dated `at`, and
 * an activity entry of the kind with sign -1 and the sale's economics negated.
 */
export async function reverseSale(
  t: TestApp,
  saleId: string,
  at: number,
  kind: 'refund' | 'chargeback' = 'refund',
): Promise<string> {
  return copyLine(t, saleId, at, { entryType: 'sale_reversal', kind, sign: -1, reverses: saleId });
}

/** A chargeback reinstatement: a `sale` row again, naming the reversal it undoes. */
export async function reinstate(t: TestApp, reversalId: string, at: number): Promise<string> {
  return copyLine(t, reversalId, at, { entryType: 'sale', kind: 'sale', sign: 1, reverses: reversalId });
}

async function copyLine(
  t: TestApp,
  fromId: string,
  at: number,
  how: {
    entryType: 'sale' | 'sale_reversal';
    kind: 'sale' | 'refund' | 'chargeback';
    sign: number;
    reverses: string;
  },
) {
  const db = t.ctx.db;
  const line = await db
    .selectFrom('sale_lines')
    .selectAll()
    .where('id', '=', fromId)
    .executeTakeFirstOrThrow();
  const activity = await db
    .selectFrom('activity_entries')
    .selectAll()
    .where('order_id', '=', line.order_id)
    .where('kind', '=', 'sale')
    .executeTakeFirstOrThrow();
  const magnitude = (v: number | null) => (v === null ? null : how.sign * Math.abs(Number(v)));
  const id = uuidv7(at);
  await db
    .insertInto('sale_lines')
    .values({
      ...line,
      id,
      entry_type: how.entryType,
      reverses_transaction_id: how.reverses,
      quantity: how.sign * Math.abs(line.quantity),
      sale_price_cents: magnitude(line.sale_price_cents)!,
      initial_sale_price_cents: magnitude(line.initial_sale_price_cents)!,
      wholesale_cents: magnitude(line.wholesale_cents),
      settlement: signedJson(line.settlement, ['grossMinor', 'vatMinor', 'netMinor'], how.sign),
      created_at: at,
    })
    .execute();
  await db
    .insertInto('activity_entries')
    .values({
      ...activity,
      id: uuidv7(at),
      kind: how.kind,
      sign: how.sign,
      economics: signedJson(activity.economics, ['saleMinor', 'wholesaleMinor'], how.sign)!,
      created_at: at,
    })
    .execute();
  return id;
}

/** The JSON object with the named amounts given the sign (null stays null). */
function signedJson(text: string | null, fields: string[], sign: number): string | null {
  if (text === null) return null;
  const value = JSON.parse(text) as Record<string, unknown>;
  for (const f of fields) {
    const v = value[f];
    if (typeof v === 'number') value[f] = sign * Math.abs(v);
  }
  return JSON.stringify(value);
}

export const sellerGet = (t: TestApp, seller: TestSeller, path: string) =>
  call(t, { method: 'GET', url: `/api/seller/v1${path}`, headers: seller.auth });

/**
 * A month of USD and EUR sales (gross 79.96 USD and 4.00 EUR) with a USD refund, an EUR refund and
 * a USD chargeback that is reinstated: nets 39.98 USD and 1.00 EUR. Answers the time it started.
 */
export async function seedMixedMonth(t: TestApp, seller: TestSeller): Promise<number> {
  const now = t.ctx.clock.now();
  const usd = [
    await placeSale(t, seller, alwaysOrder()),
    await placeSale(t, seller, alwaysOrder({ quantity: 2 })),
    await placeSale(t, seller, alwaysOrder()),
  ];
  await placeSale(t, seller, euroOrder(1));
  const eur3 = await placeSale(t, seller, euroOrder(3));
  await reverseSale(t, usd[1]!, now + 1);
  await reverseSale(t, eur3, now + 2);
  const chargeback = await reverseSale(t, usd[2]!, now + 3, 'chargeback');
  await reinstate(t, chargeback, now + 4);
  return now;
}
