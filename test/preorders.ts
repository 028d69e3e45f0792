import { randomBase32 } from '../src/lib/ids.js';
import { admin, type Catalog } from './admin.js';
import { makeKey } from './factories.js';
import { ADMIN_TOKEN, type TestApp } from './harness.js';
import { productionOrder } from './production.js';

export interface PreorderScenario extends Catalog {
  allocationId: string;
  poolId: string;
  seller: { keyId: string; token: string; auth: Record<string, string> };
}

/**
 * A production pre-order built through /admin/v1: product in `pre_order` with an open window,
 * release `announced`, US price 5999 USD, a shared pool holding `keyCount` keys, share,
 * allocation of `quantityLimit`, a seller verified for pre-orders with footprint US/USD.
 */
export async function preorderScenario(
  t: TestApp,
  options: { keyCount?: number; quantityLimit?: number } = {},
): Promise<PreorderScenario> {
  const publisher = await admin(t, 'POST', '/companies', {
    name: `Pub ${randomBase32(4)}`,
    kind: 'publisher',
  });
  const seller = await admin(t, 'POST', '/companies', {
    name: `Shop ${randomBase32(4)}`,
    country: 'DE',
    productionAccess: true,
    apiAgreementSigned: true,
  });
  await admin(t, 'PATCH', `/companies/${seller.id}`, { preorderVerified: true });
  const connection = await admin(t, 'POST', '/connections', {
    sellerCompanyId: seller.id,
    publisherCompanyId: publisher.id,
    catalogShareMode: 'per_sku',
  });
  await admin(t, 'POST', `/connections/${connection.id}/agreements`, { kind: 'bma', bmaType: 'api' });
  const product = await admin(t, 'POST', '/products', {
    publisherCompanyId: publisher.id,
    name: 'Coming Game',
    slug: `coming-${randomBase32(8)}`,
    status: 'active',
    launchPhase: 'pre_order',
    preorderEnabled: true,
    preorderStart: new Date(t.ctx.clock.now() - 86_400_000).toISOString(),
  });
  const release = await admin(t, 'POST', `/products/${product.id}/releases`, {
    name: 'Standard',
    state: 'announced',
  });
  const skuCode = `PRE-${randomBase32(8).toUpperCase()}`;
  const sku = await admin(t, 'POST', `/releases/${release.id}/skus`, { code: skuCode, platform: 'steam' });
  await admin(
    t,
    'PUT',
    `/releases/${release.id}/prices`,
    { countryCode: 'US', currencyCode: 'USD', listPriceCents: 5999 },
    200,
  );
  const pool = await admin(t, 'POST', '/pools', { kind: 'shared', skuId: sku.id });
  await admin(t, 'POST', `/connections/${connection.id}/shares`, { skuId: sku.id }, 200);
  const allocation = await admin(t, 'POST', `/connections/${connection.id}/allocations`, {
    skuId: sku.id,
    quantityLimit: options.quantityLimit ?? 100,
    pricePerKeyCents: 3000,
    currencyCode: 'USD',
    currencyExponent: 2,
  });
  await admin(t, 'PUT', `/companies/${seller.id}/footprint`, { countries: ['US'], currencies: ['USD'] }, 200);
  const key = await makeKey(t, seller.id, { environment: 'production' });
  const s = {
    publisherId: publisher.id,
    sellerId: seller.id,
    connectionId: connection.id,
    productId: product.id,
    releaseId: release.id,
    skuId: sku.id,
    skuCode,
    allocationId: allocation.id,
    poolId: pool.id,
    seller: { ...key, auth: { ...key.auth, 'x-forwarded-for': '8.8.8.8' } },
  };
  if (options.keyCount) await importPreorderKeys(t, s, options.keyCount);
  return s;
}

let imported = 0;

/** Imports `count` fresh keys into the scenario's shared pool; returns them. */
export async function importPreorderKeys(t: TestApp, s: PreorderScenario, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, () => `PK-${s.skuCode}-${++imported}`);
  const response = await t.app.inject({
    method: 'POST',
    url: `/admin/v1/pools/${s.poolId}/keys`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
    payload: keys.join('\n'),
  });
  if (response.statusCode !== 200) throw new Error(`key import failed: ${response.body}`);
  return keys;
}

/** Moves the release out: release `available`, product `released` (both, as a publisher does at launch). */
export async function release(t: TestApp, s: PreorderScenario): Promise<void> {
  await admin(t, 'PATCH', `/releases/${s.releaseId}`, { state: 'available' });
  await admin(t, 'PATCH', `/products/${s.productId}`, { launchPhase: 'released' });
}

export const preorderBody = (s: PreorderScenario, overrides: Record<string, unknown> = {}) =>
  productionOrder(s as never, overrides);
