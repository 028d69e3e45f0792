import type { AppContext } from '../../../context.js';
import { type AllocationRow, sellerAllocationsOn } from '../../allocations/index.js';
import { isProductVisible } from '../../catalog/index.js';
import { isLiveAt, type PromotionRow, unendedPromotions } from '../../promotions/index.js';
import {
  type CatalogReads,
  catalogReads,
  catalogReadsAt,
  currentEntry,
  forgetEntry,
} from './catalog-cache.js';
import { type CheckoutSku, skuForCheckout } from './checkout.repo.js';
import {
  type LiveReads,
  liveReadsOf,
  NOTHING,
  readsLiveInOneStatement,
  readTogether,
} from './hot-reads.repo.js';

/** The quote's first reads: the catalog cache and the SKU, with the live reads for the SKU. */
export interface HotReads extends LiveReads {
  /** The catalog cache under the version this request read first. */
  reads: CatalogReads;
  /** The SKU by code under that version; undefined when no such SKU exists. */
  sku: CheckoutSku | undefined;
  /**
   * The version the reads were taken under when the request did not read it (`speculate`):
   * the statement that writes on them must prove it is still current. Null when it was read.
   */
  versionToProve: number | null;
}

interface Target {
  sellerId: string;
  environment: string;
  skuCode: string;
  now: number;
  /**
   * Whether the quote may judge the grants as cached (`cachedLiveReads`): their terms and
   * status as of the catalog version, their counters as they were when loaded. Preview
   * answers with the counters, so it reads them.
   */
  countersProven: boolean;
  /**
   * PostgreSQL: the caller's write statement proves the catalog version, so the quote may take
   * everything from the process's current generation without reading it (`speculativeReads`).
   */
  speculate?: boolean;
}

/**
 * The quote's first reads. A quote whose counters the order path proves (`countersProven`)
 * reads only the catalog version: the SKU and the live reads come from the cache under it
 * (`cachedLiveReads`). Otherwise, on PostgreSQL in the steady state, one round trip: the SKU
 * comes from the process's current catalog generation, and one statement reads the catalog
 * version with visibility, allocations and promotions for that SKU. If the version it read is
 * the generation's, nothing in the catalog changed since the SKU was loaded under it, so the
 * SKU and everything cached under that version are valid for this request exactly as if it had
 * read the version first (catalog-cache.ts). Otherwise the version it read (read after the
 * request began, so never older than a change committed before) becomes the request's
 * version, the SKU is served or loaded under it, and the statement's other reads stand if it
 * is the same SKU and product (they depend on nothing else), else one more statement reads
 * them for the SKU. With nothing to guess from (first request, SKU not loaded) the request
 * reads the version first, as SQLite always does.
 */
export async function hotReads(ctx: AppContext, t: Target): Promise<HotReads> {
  const key = `sku:${t.environment}:${t.skuCode}`;
  if (t.countersProven) {
    const speculative = t.speculate ? await speculativeReads(ctx, t, key) : null;
    if (speculative) return speculative;
    const reads = await catalogReads(ctx);
    const sku = await reads.get(key, () => skuForCheckout(ctx.db, t.environment, t.skuCode));
    return hot(reads, sku, sku ? await cachedLiveReads(ctx, reads, t, sku) : NOTHING);
  }
  const oneStatement = readsLiveInOneStatement(ctx.db);
  const entry = oneStatement ? currentEntry<CheckoutSku | undefined>(ctx, key) : undefined;
  const guess = await entry?.value.catch(() => undefined);
  const together = guess && (await readTogether(ctx.db, t, guess));
  if (entry && guess && together && together.version === entry.version) {
    return hot(catalogReadsAt(ctx, entry.version), guess, together);
  }
  const reads = together ? catalogReadsAt(ctx, together.version) : await catalogReads(ctx);
  const sku = await reads.get(key, () => skuForCheckout(ctx.db, t.environment, t.skuCode));
  if (!sku) return hot(reads, sku, NOTHING);
  if (together && guess.id === sku.id && guess.product_id === sku.product_id) {
    return hot(reads, sku, together);
  }
  return hot(reads, sku, await liveReadsOf(ctx.db, t, sku));
}

/** The live reads of one seller on one SKU, as cached (`cachedLiveReads`). */
interface CachedLive {
  visible: boolean;
  allocations: AllocationRow[];
  /** Live or still to start when loaded: filtered by the request's moment. */
  unended: PromotionRow[];
  /** Until when `visible` holds: the next turn of the sandbox churn cycle, if the product has one. */
  validUntil: number;
}

const liveKey = (sellerId: string, environment: string, skuId: string) =>
  `live:${sellerId}:${environment}:${skuId}`;

const HOUR_MS = 3_600_000;

/** The next moment the churn cycle (visibility.repo.ts `liveInChurnCycle`) may turn after `now`. */
function nextChurnTurn(sku: CheckoutSku, now: number): number {
  const hours = sku.churn_period_hours;
  if (!hours || hours <= 0) return Number.POSITIVE_INFINITY;
  const period = hours * HOUR_MS;
  return (Math.floor(now / period) + 1) * period;
}

/**
 * Visibility, grants and promotions under the catalog version (migration 0017 makes every
 * change of what they read bump it, but for the grant's counters). What moves with time is
 * judged at the request's moment: promotions are kept from their start to their end and
 * filtered by it, and visibility is loaded again at the next turn of the churn cycle. The
 * grant's counters and `promise_version` are as loaded: the order path proves them in its
 * conditional statements, and one that finds them moved takes the locked path, which drops
 * the entry (`forgetLiveReads`).
 */
async function cachedLiveReads(
  ctx: AppContext,
  reads: CatalogReads,
  t: Target,
  sku: CheckoutSku,
): Promise<LiveReads> {
  const { sellerId, environment, now } = t;
  const load = async (): Promise<CachedLive> => {
    const [visible, allocations, unended] = await Promise.all([
      isProductVisible(ctx.db, sellerId, environment, sku.product_id, now),
      sellerAllocationsOn(ctx.db, sellerId, environment, [sku.id]),
      unendedPromotions(ctx.db, { sellerId, environment, skuId: sku.id, productId: sku.product_id, now }),
    ]);
    return { visible, allocations, unended, validUntil: nextChurnTurn(sku, now) };
  };
  const live = await reads.getCurrent(
    liveKey(sellerId, environment, sku.id),
    load,
    (cached) => cached.validUntil > now,
  );
  return liveAt(live, now);
}

function liveAt(live: CachedLive, now: number): LiveReads {
  if (!live.visible) return NOTHING;
  return {
    visible: true,
    allocations: live.allocations,
    promotionRows: live.unended.filter((p) => isLiveAt(p, now)),
  };
}

/**
 * With no read at all: the SKU and its live reads from the process's current generation, if it
 * holds both, current at the request's moment. The caller's statement proves the generation's
 * version (`versionToProve`); a request that finds it moved is quoted again, reading it.
 */
async function speculativeReads(ctx: AppContext, t: Target, key: string): Promise<HotReads | null> {
  const skuEntry = currentEntry<CheckoutSku | undefined>(ctx, key);
  const sku = await skuEntry?.value.catch(() => undefined);
  if (!skuEntry || !sku) return null;
  const liveEntry = currentEntry<CachedLive>(ctx, liveKey(t.sellerId, t.environment, sku.id));
  const live = await liveEntry?.value.catch(() => undefined);
  if (!liveEntry || !live || liveEntry.version !== skuEntry.version || live.validUntil <= t.now) return null;
  const reads = catalogReadsAt(ctx, skuEntry.version);
  return { ...hot(reads, sku, liveAt(live, t.now)), versionToProve: skuEntry.version };
}

/** The locked path found the grant moved since the cached reads: the next quote reads it again. */
export function forgetLiveReads(ctx: AppContext, sellerId: string, environment: string, skuId: string) {
  forgetEntry(ctx, liveKey(sellerId, environment, skuId));
}

const hot = (reads: CatalogReads, sku: CheckoutSku | undefined, live: LiveReads): HotReads => ({
  reads,
  sku,
  visible: live.visible,
  allocations: live.allocations,
  promotionRows: live.promotionRows,
  versionToProve: null,
});
