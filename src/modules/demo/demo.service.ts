import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { randomBase32 } from '../../lib/ids.js';
import { grantAllocation, requireAllocation, setSkuShare } from '../allocations/index.js';
import { mintKey } from '../api-keys/index.js';
import {
  createProduct,
  createRelease,
  createSku,
  setReferenceRate,
  setTerritoryPrice,
} from '../catalog/index.js';
import { createCompany, getCompany, replaceFootprint } from '../companies/index.js';
import { createPool, importKeys } from '../inventory/index.js';
import { type AgreementInput, addAgreement, connect } from '../partners/index.js';

export const DEMO_SELLER_ID = '00000000-0000-7000-8000-de0000000001';
const NORTHWIND_ID = '00000000-0000-7000-8000-de0000000002';
const BLUE_HARBOR_ID = '00000000-0000-7000-8000-de0000000003';
const KEYS_PER_SKU = 200;

const PRICES = [
  { country: 'US', currency: 'USD', factor: 1 },
  { country: 'DE', currency: 'EUR', factor: 0.93 },
  { country: 'FR', currency: 'EUR', factor: 0.93 },
  { country: 'GB', currency: 'GBP', factor: 0.83 },
];

interface DemoProduct {
  publisherId: string;
  connectionId: string;
  name: string;
  usdCents: number;
  platforms: string[];
  preorder?: boolean;
}

async function addProduct(ctx: AppContext, trx: Executor, demo: DemoProduct) {
  const now = ctx.clock.now();
  const slug = demo.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const product = await createProduct(ctx, trx, demo.publisherId, 'production', {
    name: demo.name,
    slug,
    status: 'active',
    launchPhase: demo.preorder ? 'pre_order' : 'released',
    preorderEnabled: demo.preorder,
    preorderStart: demo.preorder ? now : null,
    preorderEnd: demo.preorder ? now + 30 * 86_400_000 : null,
    shortDescription: { en: `${demo.name}: a demo title.`, de: `${demo.name}: ein Demo-Titel.` },
    platforms: demo.platforms.map((code) => ({ code })),
    regions: [{ code: 'WW' }],
  });
  const release = await createRelease(ctx, trx, product.id, {
    name: 'Standard Edition',
    state: demo.preorder ? 'announced' : 'available',
  });
  for (const p of PRICES) {
    await setTerritoryPrice(ctx, trx, release.id, {
      countryCode: p.country,
      currencyCode: p.currency,
      listPriceCents: Math.round(demo.usdCents * p.factor),
    });
  }
  const pools: string[] = [];
  for (const platform of demo.platforms) {
    const code = `DEMO-${slug.toUpperCase()}-${platform.toUpperCase()}`;
    const sku = await createSku(ctx, trx, release.id, { code, platform });
    await setSkuShare(ctx, trx, demo.connectionId, sku.id, true);
    await grantAllocation(ctx, trx, demo.connectionId, sku.id, {
      quantityLimit: 500,
      pricePerKeyCents: Math.round(demo.usdCents * 0.6),
      currencyCode: 'USD',
      currencyExponent: 2,
      lowStockThreshold: 20,
    });
    pools.push((await createPool(ctx, trx, { kind: 'shared', skuId: sku.id }, requireAllocation)).id);
  }
  return pools;
}

/**
 * `sdapi seed demo`: a production-mode world to explore: two publishers, a demo store with a
 * footprint, agreements, products priced in several countries and currencies, key pools and
 * allocations. Seeds once; every run mints a fresh production key for the demo store.
 */
export async function seedDemo(ctx: AppContext, allowedIp: string) {
  const seeded = (await getCompany(ctx, DEMO_SELLER_ID, ctx.db)) !== null;
  if (!seeded) {
    const pools = await ctx.db.transaction().execute(async (trx) => {
      await createCompany(
        ctx,
        {
          id: DEMO_SELLER_ID,
          name: 'Demo Store',
          country: 'DE',
          productionAccess: true,
          apiAgreementSigned: true,
        },
        trx,
      );
      await createCompany(
        ctx,
        { id: NORTHWIND_ID, name: 'Northwind Games', kind: 'publisher', country: 'US' },
        trx,
      );
      await createCompany(
        ctx,
        { id: BLUE_HARBOR_ID, name: 'Blue Harbor Interactive', kind: 'publisher', country: 'GB' },
        trx,
      );
      const terms: AgreementInput = {
        kind: 'bma',
        bmaType: 'api',
        currencyMode: 'custom',
        currencyDetail: { USD: ['US'], EUR: ['DE', 'FR'], GBP: ['GB'] },
        permittedChannels: 'own_storefront_plus_named_marketplaces',
        marketplaceSlugs: ['example-market'],
      };
      const northwind = await connect(
        ctx,
        {
          sellerCompanyId: DEMO_SELLER_ID,
          publisherCompanyId: NORTHWIND_ID,
          catalogShareMode: 'whole_catalog',
          invoicingEnabled: true,
        },
        trx,
      );
      await addAgreement(ctx, trx, northwind.id, terms);
      const harbor = await connect(
        ctx,
        { sellerCompanyId: DEMO_SELLER_ID, publisherCompanyId: BLUE_HARBOR_ID },
        trx,
      );
      await addAgreement(ctx, trx, harbor.id, {
        ...terms,
        consumerGeoPolicy: 'flag',
        regionLocks: ['RU', 'BY'],
      });
      await setReferenceRate(ctx, 'EUR', '0.92', trx);
      await setReferenceRate(ctx, 'GBP', '0.79', trx);
      return [
        ...(await addProduct(ctx, trx, {
          publisherId: NORTHWIND_ID,
          connectionId: northwind.id,
          name: 'Skyline Racers',
          usdCents: 2999,
          platforms: ['steam', 'xbox'],
        })),
        ...(await addProduct(ctx, trx, {
          publisherId: NORTHWIND_ID,
          connectionId: northwind.id,
          name: 'Ember Tactics',
          usdCents: 1999,
          platforms: ['steam'],
        })),
        ...(await addProduct(ctx, trx, {
          publisherId: BLUE_HARBOR_ID,
          connectionId: harbor.id,
          name: 'Harbor Lights',
          usdCents: 3999,
          platforms: ['steam'],
        })),
        ...(await addProduct(ctx, trx, {
          publisherId: BLUE_HARBOR_ID,
          connectionId: harbor.id,
          name: 'Harbor Lights II',
          usdCents: 5999,
          platforms: ['steam'],
          preorder: true,
        })),
      ];
    });
    await replaceFootprint(ctx, DEMO_SELLER_ID, {
      countries: ['US', 'DE', 'FR', 'GB'],
      currencies: ['USD', 'EUR', 'GBP'],
    });
    for (const poolId of pools) {
      const keys = Array.from(
        { length: KEYS_PER_SKU },
        () => `DEMO-${randomBase32(15).toUpperCase().match(/.{5}/g)!.join('-')}`,
      );
      await importKeys(ctx, poolId, Readable.from(keys.join('\n')));
    }
  }
  const key = await mintKey(
    ctx,
    {
      companyId: DEMO_SELLER_ID,
      environment: 'production',
      name: 'demo production key',
      allowedIps: [allowedIp],
    },
    ctx.db,
  );
  return {
    sellerCompanyId: DEMO_SELLER_ID,
    alreadySeeded: seeded,
    productionKey: key.key,
    allowedIps: key.allowedIps,
  };
}
