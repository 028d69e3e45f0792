import { expect } from 'vitest';
import { admin } from './admin.js';
import { post, ref, US_SALE } from './checkout.js';
import type { TestSeller } from './factories.js';
import type { TestApp } from './harness.js';
import { type ProductionScenario, productionOrder, productionScenario } from './production.js';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

/** A production SKU (see productionScenario) whose allocation is in hot-drop mode. */
export async function hotDropScenario(
  t: TestApp,
  options: { keyCount?: number; quantityLimit?: number; reservationMaxQuantity?: number } = {},
): Promise<ProductionScenario> {
  const s = await productionScenario(t, options);
  await admin(t, 'PATCH', `/allocations/${s.allocationId}`, {
    hotDrop: true,
    ...(options.reservationMaxQuantity ? { reservationMaxQuantity: options.reservationMaxQuantity } : {}),
  });
  return s;
}

/** A reserve body at the scenario's price, for a US buyer. */
export const reserveBody = (s: ProductionScenario, overrides: Record<string, unknown> = {}) => ({
  skuCode: s.skuCode,
  quantity: 1,
  countryCode: 'US',
  orderReference: unique('hd'),
  expectedUnitPriceCents: 5999,
  ...overrides,
});

/** The declaration a production commit needs (the same as a production order's). */
export const commitBody = (s: ProductionScenario, reservationId: string) => ({
  reservationId,
  integrationOrderContext: productionOrder(s).integrationOrderContext,
});

export const seller = (s: ProductionScenario, idempotencyKey = unique('idem')) => ({
  ...s.seller.auth,
  'idempotency-key': idempotencyKey,
});

/** A sandbox hot-drop reservation of one key under `orderReference` by `seller`; its id. */
export async function reserveSandboxHotDrop(
  t: TestApp,
  seller: TestSeller,
  orderReference: string,
): Promise<string> {
  const body = {
    skuCode: 'SANDBOX-HOTDROP-001',
    quantity: 1,
    countryCode: 'US',
    expectedUnitPriceCents: 1999,
    orderReference,
  };
  const reserved = await post(t, seller, '/orders/reserve', body, { 'idempotency-key': ref('idem') });
  expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
  return reserved.body.data.reservationId as string;
}

/** POST /orders/commit by `seller`; the order written. */
export async function commitReservation(t: TestApp, seller: TestSeller, reservationId: string) {
  const body = { reservationId, integrationOrderContext: US_SALE };
  const committed = await post(t, seller, '/orders/commit', body, { 'idempotency-key': ref('idem') });
  expect(committed.status, JSON.stringify(committed.body)).toBe(200);
  return committed.body.data as { orderId: string; keyIds: string[] };
}
