import { admin } from './admin.js';
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

/** The declaration a production commit needs (SPEC 4.2 rule 2). */
export const commitBody = (s: ProductionScenario, reservationId: string) => ({
  reservationId,
  integrationOrderContext: productionOrder(s).integrationOrderContext,
});

export const seller = (s: ProductionScenario, idempotencyKey = unique('idem')) => ({
  ...s.seller.auth,
  'idempotency-key': idempotencyKey,
});
