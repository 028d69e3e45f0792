// A sellable production SKU for the checkout benchmarks, built through the services, and the
// bare baseline: the same claim transaction driven in-process, without HTTP or the rules.
import { Readable } from 'node:stream';
import type { AppContext } from '../src/context.js';
import { readableId, uuidv7 } from '../src/lib/ids.js';
import {
  grantAllocation,
  recordPull,
  requireAllocation,
} from '../src/modules/allocations/allocations.service.js';
import { setSkuShare } from '../src/modules/allocations/shares.service.js';
import { mintKey } from '../src/modules/api-keys/api-keys.service.js';
import { setTerritoryPrice } from '../src/modules/catalog/prices.service.js';
import { createProduct } from '../src/modules/catalog/products.service.js';
import { createRelease, createSku } from '../src/modules/catalog/releases.service.js';
import { createCompany, replaceFootprint } from '../src/modules/identity/identity.service.js';
import { claimKeys } from '../src/modules/inventory/claims.service.js';
import { importKeys } from '../src/modules/inventory/key-import.service.js';
import { createPool } from '../src/modules/inventory/pools.service.js';
import { addAgreement, connect } from '../src/modules/partners/partners.service.js';

export interface CheckoutWorld {
  sellerId: string;
  skuId: string;
  skuCode: string;
  allocationId: string;
  token: string;
}

export async function buildCheckoutWorld(ctx: AppContext, keys: number): Promise<CheckoutWorld> {
  const seller = await createCompany(ctx, {
    name: 'Bench Shop',
    country: 'US',
    productionAccess: true,
    apiAgreementSigned: true,
  });
  const publisher = await createCompany(ctx, { name: 'Bench Games', kind: 'publisher', country: 'US' });
  await replaceFootprint(ctx, seller.id, { countries: ['US'], currencies: ['USD'] });
  const { sku, poolId, allocationId } = await ctx.db.transaction().execute(async (trx) => {
    const connection = await connect(
      ctx,
      { sellerCompanyId: seller.id, publisherCompanyId: publisher.id, environment: 'production' },
      trx,
    );
    await addAgreement(ctx, trx, connection.id, { kind: 'bma', bmaType: 'api' });
    const product = await createProduct(ctx, trx, publisher.id, 'production', {
      name: 'Bench Checkout',
      slug: 'bench-checkout',
      status: 'active',
    });
    const release = await createRelease(ctx, trx, product.id, { name: 'Standard', state: 'available' });
    const sku = await createSku(ctx, trx, release.id, { code: 'BENCH-CHECKOUT-001', platform: 'steam' });
    await setTerritoryPrice(ctx, trx, release.id, {
      countryCode: 'US',
      currencyCode: 'USD',
      listPriceCents: 1999,
    });
    const pool = await createPool(ctx, trx, { kind: 'shared', skuId: sku.id });
    await setSkuShare(ctx, trx, connection.id, sku.id, true);
    const allocation = await grantAllocation(ctx, trx, connection.id, sku.id, {
      quantityLimit: 100_000_000,
      pricePerKeyCents: 1000,
      currencyCode: 'USD',
      currencyExponent: 2,
    });
    return { sku, poolId: pool.id, allocationId: allocation.id };
  });
  const lines = (function* () {
    for (let i = 0; i < keys; i++) yield `BENCH-${i.toString(36).padStart(8, '0')}-KEY\n`;
  })();
  await importKeys(ctx, poolId, Readable.from(lines));
  const key = await mintKey(ctx, {
    companyId: seller.id,
    environment: 'production',
    name: 'bench checkout',
    allowedIps: ['8.8.8.0/24'],
  });
  return { sellerId: seller.id, skuId: sku.id, skuCode: sku.code, allocationId, token: key.key };
}

/**
 * The bare baseline: `workers` concurrent loops of the claim transaction that POST /orders
 * runs at its core (lock the grant, claim one key, move the counter, write the order row),
 * without HTTP, auth or the checkout rules. Returns transactions per second.
 */
export async function bareClaims(ctx: AppContext, world: CheckoutWorld, seconds: number, workers: number) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async (w: number) => {
    for (let i = 0; performance.now() < until; i++) {
      await ctx.db.transaction().execute(async (trx) => {
        const allocation = await requireAllocation(trx, world.allocationId, true);
        const now = ctx.clock.now();
        const orderId = uuidv7(now);
        await trx
          .insertInto('orders')
          .values({
            id: orderId,
            readable_id: readableId('ord'),
            seller_company_id: world.sellerId,
            environment: 'production',
            api_key_id: 'bare',
            reference_owner: world.sellerId,
            order_reference: `bare-${w}-${i}-${now}`,
            kind: 'order',
            delivery: 'keys',
            sku_id: world.skuId,
            sku_code: world.skuCode,
            product_id: 'bench',
            allocation_id: world.allocationId,
            publisher_company_id: allocation.publisher_company_id,
            quantity: 1,
            pulled: 1,
            unit_price_cents: 1999,
            initial_unit_price_cents: 1999,
            currency_code: 'USD',
            country_code: 'US',
            wholesale_unit_price_cents: 1000,
            wholesale_currency_code: 'USD',
            promo: null,
            hold_id: null,
            consumer_geo_attest_id: null,
            detected_country_code: null,
            country_mismatch: 0,
            consumer_ip_hash: null,
            integration_context: null,
            warnings: '[]',
            contract_date: '2026-09-01',
            revealed_at: now,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await claimKeys(ctx, trx, {
          allocationId: world.allocationId,
          skuId: world.skuId,
          skuCode: world.skuCode,
          environment: 'production',
          orderId,
          quantity: 1,
        });
        await recordPull(ctx, trx, allocation, world.skuCode, 1);
      });
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return Math.round(done / ((performance.now() - started) / 1000));
}
