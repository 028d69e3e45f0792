import { expect } from 'vitest';
import { admin } from './admin.js';
import { alwaysOrder, post, US_SALE } from './checkout.js';
import type { TestSeller } from './factories.js';
import type { TestApp } from './harness.js';

/** A grant's own policy with a longer window than the platform's 14 days (revealed keys refundable). */
export const LENIENT_POLICY = { refundableWithinDays: 30, requiresUnrevealedOrUnredeemed: false };

/** An order line of each sandbox currency: USD (1999 a key) and EUR (100 a key in DE). */
export const SANDBOX_LINES = {
  USD: { skuCode: 'SANDBOX-ALWAYS-001', expectedUnitPriceCents: 1999, integrationOrderContext: US_SALE },
  EUR: {
    skuCode: 'SANDBOX-EUR1-001',
    countryCode: 'DE',
    expectedUnitPriceCents: 100,
    integrationOrderContext: {
      salesCountryCode: 'DE',
      currencyCode: 'EUR',
      salesTaxRatePercent: 19,
      salesPriceGrossMinor: 119,
      salesChannel: 'web',
    },
  },
} as const;

/** Places a sandbox order and returns its response data (fails the test unless 200). */
export async function order(t: TestApp, seller: TestSeller, overrides: Record<string, unknown> = {}) {
  const result = await post(t, seller, '/orders', alwaysOrder(overrides));
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  const row = await t.ctx.db
    .selectFrom('orders')
    .select('allocation_id')
    .where('id', '=', result.body.data.orderId)
    .executeTakeFirstOrThrow();
  return { ...result.body.data, allocationId: row.allocation_id } as {
    orderId: string;
    orderReference: string;
    allocationId: string;
    keyIds: string[];
    keys: string[];
    quantity: number;
  };
}

export async function setPolicy(t: TestApp, allocationId: string, policy: Record<string, unknown> | null) {
  await admin(t, 'PATCH', `/allocations/${allocationId}`, { refundPolicy: policy });
}

export const refund = (
  t: TestApp,
  seller: TestSeller,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => post(t, seller, '/refunds', body, headers);

export const keyStates = async (t: TestApp, ids: readonly string[]) =>
  Object.fromEntries(
    (await t.ctx.db.selectFrom('game_keys').select(['id', 'state']).where('id', 'in', ids).execute()).map(
      (k) => [k.id, k.state],
    ),
  );

export const saleLinesOf = (t: TestApp, orderId: string) =>
  t.ctx.db.selectFrom('sale_lines').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

export const activityOf = (t: TestApp, orderId: string) =>
  t.ctx.db.selectFrom('activity_entries').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

export const allocationRow = (t: TestApp, id: string) =>
  t.ctx.db.selectFrom('allocations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Everything after-sale writes, counted: a refused request must leave these unchanged. */
export async function afterSaleFootprint(t: TestApp, sellerId: string) {
  const count = async (table: 'refunds' | 'refund_keys' | 'sale_lines' | 'activity_entries') =>
    (
      await t.ctx.db
        .selectFrom(table)
        .select('seller_company_id')
        .where('seller_company_id', '=', sellerId)
        .execute()
    ).length;
  const events = await t.ctx.db
    .selectFrom('outbox_events')
    .select('event_type')
    .where('company_id', '=', sellerId)
    .execute();
  return {
    refunds: await count('refunds'),
    refundKeys: await count('refund_keys'),
    saleLines: await count('sale_lines'),
    activity: await count('activity_entries'),
    events: events.length,
  };
}
