import { admin, buildCatalog, type Catalog } from './admin.js';
import { makeKey } from './factories.js';
import { ADMIN_TOKEN, type TestApp } from './harness.js';

export interface ProductionScenario extends Catalog {
  agreementId: string;
  allocationId: string;
  poolId: string;
  keys: string[];
  seller: { keyId: string; token: string; auth: Record<string, string> };
}

/**
 * A sellable production SKU built through /admin/v1: API agreement, US price 5999 USD,
 * shared pool with `keyCount` keys, share, allocation of `quantityLimit`, footprint US/USD,
 * and a seller key (send x-forwarded-for 8.8.8.8 to pass its allowlist).
 */
export async function productionScenario(
  t: TestApp,
  options: { keyCount?: number; quantityLimit?: number; agreement?: Record<string, unknown> } = {},
): Promise<ProductionScenario> {
  const c = await buildCatalog(t);
  const agreement = await admin(t, 'POST', `/connections/${c.connectionId}/agreements`, {
    kind: 'bma',
    bmaType: 'api',
    ...options.agreement,
  });
  await admin(
    t,
    'PUT',
    `/releases/${c.releaseId}/prices`,
    { countryCode: 'US', currencyCode: 'USD', listPriceCents: 5999 },
    200,
  );
  const pool = await admin(t, 'POST', '/pools', { kind: 'shared', skuId: c.skuId });
  const keys = Array.from({ length: options.keyCount ?? 5 }, (_, i) => `PROD-${c.skuCode}-${i}`);
  await t.app.inject({
    method: 'POST',
    url: `/admin/v1/pools/${pool.id}/keys`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
    payload: keys.join('\n'),
  });
  await admin(t, 'POST', `/connections/${c.connectionId}/shares`, { skuId: c.skuId }, 200);
  const allocation = await admin(t, 'POST', `/connections/${c.connectionId}/allocations`, {
    skuId: c.skuId,
    quantityLimit: options.quantityLimit ?? 100,
    pricePerKeyCents: 3000,
    currencyCode: 'USD',
    currencyExponent: 2,
  });
  await admin(
    t,
    'PUT',
    `/companies/${c.sellerId}/footprint`,
    { countries: ['US'], currencies: ['USD'] },
    200,
  );
  const key = await makeKey(t, c.sellerId, { environment: 'production' });
  return {
    ...c,
    agreementId: agreement.id,
    allocationId: allocation.id,
    poolId: pool.id,
    keys,
    seller: { ...key, auth: { ...key.auth, 'x-forwarded-for': '8.8.8.8' } },
  };
}

/** A production order body at the scenario's price, declared as a US web sale from a US buyer. */
export const productionOrder = (s: Catalog, overrides: Record<string, unknown> = {}) => ({
  skuCode: s.skuCode,
  quantity: 1,
  orderReference: `po-${Math.random().toString(36).slice(2)}`,
  expectedUnitPriceCents: 5999,
  integrationOrderContext: {
    salesCountryCode: 'US',
    currencyCode: 'USD',
    salesTaxRatePercent: 0,
    salesPriceGrossMinor: 6999,
    salesChannel: 'web',
    consumerIp: '8.8.8.8',
  },
  ...overrides,
});
