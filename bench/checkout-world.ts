// A sellable production SKU for the checkout benchmarks, built through the services.
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { AppContext } from '../src/context.js';
import { isPostgres } from '../src/db/dialect.js';
import { grantAllocation, requireAllocation } from '../src/modules/allocations/allocations.service.js';
import { setSkuShare } from '../src/modules/allocations/shares.service.js';
import { mintKey } from '../src/modules/api-keys/api-keys.service.js';
import { setTerritoryPrice } from '../src/modules/catalog/prices.service.js';
import { createProduct } from '../src/modules/catalog/products.service.js';
import { createRelease, createSku } from '../src/modules/catalog/releases.service.js';
import { createCompany, replaceFootprint } from '../src/modules/companies/companies.service.js';
import { importKeys } from '../src/modules/inventory/key-import.service.js';
import { createPool } from '../src/modules/inventory/pools.service.js';
import { addAgreement, connect } from '../src/modules/partners/partners.service.js';

/** The declaration of a bench order (a US web sale from a US buyer, inside the seller's allowlist). */
export const BENCH_DECLARATION = {
  salesCountryCode: 'US',
  currencyCode: 'USD',
  salesTaxRatePercent: 0,
  salesPriceGrossMinor: 2499,
  salesChannel: 'web',
  consumerIp: '8.8.8.8',
};

export interface CheckoutWorld {
  sellerId: string;
  skuId: string;
  skuCode: string;
  allocationId: string;
  publisherId: string;
  poolId: string;
  token: string;
}

export async function buildCheckoutWorld(ctx: AppContext, keys: number): Promise<CheckoutWorld> {
  const seller = await createCompany(
    ctx,
    {
      name: 'Bench Shop',
      country: 'US',
      productionAccess: true,
      apiAgreementSigned: true,
    },
    ctx.db,
  );
  const publisher = await createCompany(
    ctx,
    { name: 'Bench Games', kind: 'publisher', country: 'US' },
    ctx.db,
  );
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
    const pool = await createPool(ctx, trx, { kind: 'shared', skuId: sku.id }, requireAllocation);
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
  // What production's autovacuum does after a bulk import (this machine runs none): statistics,
  // and the visibility map that lets an index-only count skip the heap (the reserve refill's).
  if (isPostgres(ctx.db)) await sql`vacuum analyze game_keys`.execute(ctx.db);
  const key = await mintKey(
    ctx,
    {
      companyId: seller.id,
      environment: 'production',
      name: 'bench checkout',
      allowedIps: ['8.8.8.0/24'],
    },
    ctx.db,
  );
  return {
    sellerId: seller.id,
    skuId: sku.id,
    skuCode: sku.code,
    allocationId,
    publisherId: publisher.id,
    poolId,
    token: key.key,
  };
}
