import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { type Executor, isUniqueViolation } from '../../db/database.js';
import { findShare, grantAllocation, requireAllocation, setSkuShare } from '../allocations/index.js';
import {
  createProduct,
  createRelease,
  createSku,
  findSkuByCode,
  setTerritoryPrice,
} from '../catalog/index.js';
import { createCompany, getCompany } from '../companies/index.js';
import { createPool, importKeys, syntheticKeyText } from '../inventory/index.js';
import { addAgreement, connect } from '../partners/index.js';
import { MAGIC_SKUS, type MagicSku, SANDBOX_PUBLISHER_ID, SANDBOX_PUBLISHER_NAME } from './fixtures.js';
import * as repo from './sandbox.repo.js';

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const SANDBOX_ALLOCATION_LIMIT = 1_000_000;

async function ensureProductFor(ctx: AppContext, trx: Executor, magic: MagicSku) {
  const slug = slugOf(magic.product);
  const existing = await repo.sandboxProductBySlug(trx, slug);
  const status = magic.productStatus ?? {};
  const product =
    existing ??
    (await createProduct(ctx, trx, SANDBOX_PUBLISHER_ID, 'sandbox', {
      name: magic.product,
      slug,
      status: 'active',
      launchPhase: status.launchPhase ?? 'released',
      tradingState: status.tradingState ?? 'trading',
      preorderEnabled: status.launchPhase === 'pre_order',
      preorderStart: status.launchPhase === 'pre_order' ? Date.parse('2099-01-01T00:00:00Z') : null,
      shortDescription: { en: magic.description },
      platforms: [{ code: magic.platform }],
      churnPeriodHours: status.churnPeriodHours ?? null,
    }));
  // A product lists the platforms of all its magic SKUs (SANDBOX-ALWAYS-PS5-001 makes Sandbox
  // Always a PS5 product too); an installation seeded before gets the missing one added.
  const platforms = JSON.parse(product.platforms) as { code: string }[];
  if (!platforms.some((p) => p.code === magic.platform))
    await repo.setProductPlatforms(
      trx,
      product.id,
      [...platforms, { code: magic.platform }],
      ctx.clock.now(),
    );
  const release =
    (await repo.firstReleaseOf(trx, product.id)) ??
    (await createRelease(ctx, trx, product.id, {
      name: 'Standard',
      state: status.releaseState ?? 'available',
      excludedCountries: magic.excludedCountries,
    }));
  return { product, release };
}

/** Seeds the fixture catalog once; running it again changes nothing. */
export async function seedSandboxCatalog(ctx: AppContext): Promise<{ created: string[] }> {
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await getCompany(ctx, SANDBOX_PUBLISHER_ID, trx))) {
      await createCompany(
        ctx,
        { id: SANDBOX_PUBLISHER_ID, name: SANDBOX_PUBLISHER_NAME, kind: 'publisher', country: 'US' },
        trx,
      );
    }
    const created: string[] = [];
    for (const magic of MAGIC_SKUS) {
      const { release } = await ensureProductFor(ctx, trx, magic);
      if (await findSkuByCode(trx, magic.code)) continue;
      const sku = await createSku(ctx, trx, release.id, { code: magic.code, platform: magic.platform });
      if (!(await repo.hasPrices(trx, release.id))) {
        for (const p of magic.prices) {
          await setTerritoryPrice(ctx, trx, release.id, {
            countryCode: p.country,
            currencyCode: p.currency,
            listPriceCents: p.cents,
          });
        }
      }
      if (magic.pool.mode !== 'per_company') {
        const mode = magic.pool.mode === 'empty' ? 'none' : magic.pool.mode;
        const pinned = magic.pool.mode === 'pinned' ? magic.pool.available : null;
        await createPool(
          ctx,
          trx,
          {
            kind: 'shared',
            skuId: sku.id,
            replenishMode: mode,
            pinnedAvailable: pinned,
          },
          requireAllocation,
        );
      }
      created.push(magic.code);
    }
    return { created };
  });
}

/** Per process: the sellers provisioned, or being provisioned (concurrent first requests share one run). */
const provisioning = new WeakMap<AppContext, Map<string, Promise<void>>>();

/**
 * Gives a sandbox seller its view of the fixture catalog on first use: a connection to the
 * sandbox publisher, an active API agreement, shares and allocations per magic SKU, and its own
 * finite pool for each per-company fixture (SANDBOX-STD-001, SANDBOX-HOTDROP-LIMITED-001). Idempotent; remembered per process after the first run.
 */
export function ensureSandboxProvisioned(ctx: AppContext, sellerId: string): Promise<void> {
  const runs = provisioning.get(ctx) ?? new Map<string, Promise<void>>();
  provisioning.set(ctx, runs);
  let run = runs.get(sellerId);
  if (!run) {
    run = provisionOnce(ctx, sellerId);
    runs.set(sellerId, run);
    run.catch(() => runs.delete(sellerId));
  }
  return run;
}

async function provisionOnce(ctx: AppContext, sellerId: string): Promise<void> {
  if (!(await getCompany(ctx, SANDBOX_PUBLISHER_ID, ctx.db))) await seedSandboxCatalog(ctx);
  try {
    await provision(ctx, sellerId);
  } catch (err) {
    // Another process provisioned the same rows at the same moment: run again to finish.
    if (!isUniqueViolation(err)) throw err;
    await provision(ctx, sellerId);
  }
}

async function provision(ctx: AppContext, sellerId: string): Promise<void> {
  const finitePools: { poolId: string; magic: MagicSku; keys: number }[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    const connection = await connect(
      ctx,
      { sellerCompanyId: sellerId, publisherCompanyId: SANDBOX_PUBLISHER_ID, environment: 'sandbox' },
      trx,
    );
    if (!(await repo.agreementOf(trx, connection.id)))
      await addAgreement(ctx, trx, connection.id, { kind: 'bma', bmaType: 'api' });
    for (const magic of MAGIC_SKUS) {
      const sku = await findSkuByCode(trx, magic.code);
      if (!sku) continue;
      if (magic.shared && !(await findShare(trx, sellerId, sku.id)))
        await setSkuShare(ctx, trx, connection.id, sku.id, true);
      if (!magic.allocated || (await repo.allocationOf(trx, sellerId, sku.id))) continue;
      const keys = magic.pool.mode === 'per_company' ? magic.pool.keys : SANDBOX_ALLOCATION_LIMIT;
      const allocation = await grantAllocation(ctx, trx, connection.id, sku.id, {
        quantityLimit: keys,
        pricePerKeyCents: magic.wholesaleCents ?? 1000,
        currencyCode: 'USD',
        currencyExponent: 2,
        lowStockThreshold: magic.pool.mode === 'per_company' ? 5 : null,
        requestPolicy: 'auto',
        autoApproveMax: 100,
        hotDrop: magic.hotDrop ?? false,
      });
      if (magic.pool.mode === 'per_company') {
        const pool = await createPool(
          ctx,
          trx,
          { kind: 'dedicated', allocationId: allocation.id },
          requireAllocation,
        );
        finitePools.push({ poolId: pool.id, magic, keys: magic.pool.keys });
      }
    }
  });
  for (const { poolId, magic, keys } of finitePools) {
    const lines = Array.from({ length: keys }, () => syntheticKeyText(magic.code));
    await importKeys(ctx, poolId, Readable.from(lines.join('\n')));
  }
}
