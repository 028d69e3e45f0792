import type { TestSeller } from './factories.js';
import type { TestApp } from './harness.js';
import { call } from './route-contract.js';

/** A complete sandbox declaration for a US web sale of one key at the fixture price. */
export const US_SALE = {
  salesCountryCode: 'US',
  currencyCode: 'USD',
  salesTaxRatePercent: 0,
  salesPriceGrossMinor: 1999,
  salesChannel: 'web',
} as const;

export const checkoutUrl = (path: string) => `/api/seller/v1${path}`;

export function post(
  t: TestApp,
  seller: TestSeller,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return call(t, {
    method: 'POST',
    url: checkoutUrl(path),
    headers: { ...seller.auth, ...headers },
    payload: body as Record<string, unknown>,
  });
}

let counter = 0;
export const ref = (prefix = 'ord') => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/** A sandbox order of the ALWAYS fixture at its US price. */
export const alwaysOrder = (overrides: Record<string, unknown> = {}) => ({
  skuCode: 'SANDBOX-ALWAYS-001',
  quantity: 1,
  orderReference: ref(),
  expectedUnitPriceCents: 1999,
  integrationOrderContext: US_SALE,
  ...overrides,
});

export async function ordersOf(t: TestApp, sellerId: string) {
  return t.ctx.db.selectFrom('orders').selectAll().where('seller_company_id', '=', sellerId).execute();
}

export async function soldKeysOf(t: TestApp, orderId: string) {
  return t.ctx.db.selectFrom('game_keys').selectAll().where('order_id', '=', orderId).execute();
}
