import type { AppContext } from '../../context.js';
import {
  effectivePrices,
  pricedCountriesByRelease,
  priceRowsOfReleases,
  type SkuStock,
  visibleProductIds,
} from '../catalog/index.js';
import { poolsFor, stockOf } from '../inventory/index.js';
import { inForceApiAgreement, sellerTerms } from '../partners/index.js';
import { isRequestable } from './allocation-requests.service.js';
import { remainingOf } from './allocations.service.js';
import * as repo from './availability.repo.js';
import { computeSellability } from './sellability.service.js';
import { territoryBlock } from './territory.js';

export interface AvailabilityQuery {
  quantity?: number;
  country?: string;
}

const parseList = (json: string | null): string[] => (json ? (JSON.parse(json) as string[]) : []);

/**
 * Availability of one SKU for a seller (GET /availability), or null when the SKU is not in the
 * seller's catalog. `available` is what an all-or-nothing order could pull now: the allocation's
 * remaining capped by the keys in its dedicated and shared pools, zero when not sellable.
 */
export async function availabilityOf(
  ctx: AppContext,
  scope: { sellerId: string; environment: string },
  ref: { code?: string; id?: string },
  query: AvailabilityQuery,
  visible?: Set<string>,
) {
  const { sellerId, environment } = scope;
  const sku = await repo.findSkuFacts(ctx.db, environment, ref);
  const catalog = visible ?? (await visibleProductIds(ctx.db, sellerId, environment, ctx.clock.now()));
  if (!sku || !catalog.has(sku.product_id)) return null;
  // Read once, for this function and for the sellability gates alike.
  const allocationsRead = repo.allocationsOnSkus(ctx.db, sellerId, environment, [sku.id]);
  const priceRowsRead = priceRowsOfReleases(ctx.db, [sku.release_id]);
  const [allocations, gates] = await Promise.all([
    allocationsRead,
    computeSellability(ctx, ctx.db, sellerId, environment, [sku.id], {
      allocations: allocationsRead,
      priceRows: priceRowsRead,
    }),
  ]);
  const allocation = allocations.find((a) => a.status === 'active') ?? allocations[0] ?? null;
  const gate = gates.get(sku.id);
  const pools = await poolsFor(ctx.db, sku.id, environment, allocation?.id ?? null);
  const [dedicated, shared] = await Promise.all([
    stockOf(ctx.db, pools.dedicated),
    stockOf(ctx.db, pools.shared),
  ]);
  const promised = allocation
    ? await ctx.promises.promisedOnAllocation(ctx.db, allocation.id, ctx.clock.now())
    : 0;
  const { available, allocationRemaining, inventoryAvailable, dedicatedAvailable, sharedPoolAvailable } =
    stockNumbers(allocation, dedicated, shared, gate?.sellable ?? false, promised);
  const wanted = query.quantity ?? 1;
  const cannotFullyFulfill = wanted > available;

  let territory: Record<string, unknown> = {};
  if (query.country) {
    const terms = (await sellerTerms(ctx, sellerId, environment)).find(
      (t) => t.publisherCompanyId === sku.publisher_company_id,
    );
    const api = terms ? inForceApiAgreement(terms) : null;
    const priced = pricedCountriesByRelease(effectivePrices(await priceRowsRead, ctx.clock.now()));
    const blockedReason = territoryBlock(
      {
        contractRegionLocks: api ? parseList(api.region_locks) : [],
        releaseExcludedCountries: parseList(sku.excluded_countries),
        activationType: sku.activation_type,
        activationCountries: sku.activation_countries ? parseList(sku.activation_countries) : null,
        skuRegionLocks: parseList(sku.region_locks),
        pricedCountries: priced.get(sku.release_id) ?? new Set(),
      },
      query.country,
    );
    territory = {
      country: query.country.toUpperCase(),
      sellableInCountry: (gate?.sellable ?? false) && blockedReason === null,
      blockedReason,
    };
  }

  return {
    available,
    allocationRemaining,
    inventoryAvailable,
    dedicatedAvailable,
    sharedPoolAvailable,
    allocationId: allocation?.id ?? null,
    allocationReadableId: allocation?.readable_id ?? null,
    skuId: sku.id,
    skuCode: sku.code,
    maxFulfillableQuantity: available,
    ...(query.quantity !== undefined
      ? { canFulfill: !cannotFullyFulfill && territory.blockedReason == null }
      : {}),
    cannotFullyFulfill,
    allOrNothingWillFail: cannotFullyFulfill,
    partialFulfillmentExpected: cannotFullyFulfill,
    requestable: allocation !== null && isRequestable(allocation),
    backordered: false,
    backorderEligible: false,
    backorderIneligibleReason: 'BACKORDERS_NOT_OFFERED',
    sellable: gate?.sellable ?? false,
    readinessBlockers: gate?.readinessBlockers ?? [],
    country: null,
    sellableInCountry: undefined as boolean | undefined,
    blockedReason: null as string | null,
    ...territory,
  };
}

/**
 * Stock of many SKUs at once (catalog expansions and snapshots): per SKU the same numbers as
 * `availabilityOf` gives for one, from a fixed number of queries however many SKUs.
 */
export async function stockForSkus(
  ctx: AppContext,
  scope: { sellerId: string; environment: string },
  skuIds: readonly string[],
) {
  const { sellerId, environment } = scope;
  const factsRead = repo.stockFacts(ctx.db, sellerId, environment, skuIds);
  const [facts, gates] = await Promise.all([
    factsRead,
    computeSellability(ctx, ctx.db, sellerId, environment, skuIds, {
      allocations: factsRead.then((f) => f.allocations),
    }),
  ]);
  const promised = await ctx.promises.promisedOn(
    ctx.db,
    facts.allocations.map((a) => a.id),
    ctx.clock.now(),
  );
  const count = new Map(facts.counts.map((c) => [c.pool_id, Number(c.n)]));
  const stockOfPool = (pool: (typeof facts.pools)[number] | undefined): number | null => {
    if (!pool) return 0;
    if (pool.replenish_mode === 'infinite') return null;
    if (pool.replenish_mode === 'pinned') return pool.pinned_available ?? 0;
    return count.get(pool.id) ?? 0;
  };
  const result = new Map<string, SkuStock>();
  for (const skuId of skuIds) {
    const mine = facts.allocations.filter((a) => a.sku_id === skuId);
    const allocation = mine.find((a) => a.status === 'active') ?? mine[0] ?? null;
    const dedicated = stockOfPool(
      facts.pools.find((p) => p.kind === 'dedicated' && p.allocation_id === allocation?.id),
    );
    const shared = stockOfPool(facts.pools.find((p) => p.kind === 'shared' && p.sku_id === skuId));
    result.set(
      skuId,
      stockNumbers(
        allocation,
        dedicated,
        shared,
        gates.get(skuId)?.sellable ?? false,
        allocation ? (promised.get(allocation.id) ?? 0) : 0,
      ),
    );
  }
  return result;
}

/** The stock arithmetic of GET /availability, shared by single and batch availability. */
export function stockNumbers(
  allocation: { status: string; quantity_limit: number; quantity_pulled: number } | null,
  dedicated: number | null,
  shared: number | null,
  sellable: boolean,
  /** Keys promised to live checkout holds and pre-orders: not pullable by a new order. */
  promised = 0,
) {
  const allocationRemaining = allocation && allocation.status === 'active' ? remainingOf(allocation) : 0;
  const dedicatedAvailable = dedicated ?? allocationRemaining;
  const sharedPoolAvailable = shared ?? allocationRemaining;
  const sum = dedicatedAvailable + sharedPoolAvailable;
  const inventoryAvailable = dedicated === null || shared === null ? Math.max(allocationRemaining, sum) : sum;
  const available = sellable ? Math.max(0, Math.min(allocationRemaining, inventoryAvailable) - promised) : 0;
  return { available, allocationRemaining, inventoryAvailable, dedicatedAvailable, sharedPoolAvailable };
}

/** The seller's allocations on these SKUs, newest first (checkout picks the active one). */
export const sellerAllocationsOn = repo.allocationsOnSkus;
