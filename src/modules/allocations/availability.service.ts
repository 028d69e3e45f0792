import type { AppContext } from '../../context.js';
import { effectivePrices, pricedCountriesByRelease } from '../catalog/pricing.js';
import { priceRowsOfReleases } from '../catalog/pricing.repo.js';
import { visibleProductIds } from '../catalog/visibility.repo.js';
import { poolsFor, stockOf } from '../inventory/pools.service.js';
import { inForceApiAgreement, sellerTerms } from '../partners/seller-terms.service.js';
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
 * Availability of one SKU for a seller (SPEC 2.4), or null when the SKU is not in the seller's
 * catalog. `available` is what an all-or-nothing order could pull now: the allocation's
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
  const catalog = visible ?? (await visibleProductIds(ctx.db, sellerId, environment));
  if (!sku || !catalog.has(sku.product_id)) return null;
  const allocations = await repo.allocationsOnSku(ctx.db, sellerId, environment, sku.id);
  const allocation = allocations.find((a) => a.status === 'active') ?? allocations[0] ?? null;
  const gate = (await computeSellability(ctx, ctx.db, sellerId, environment, [sku.id])).get(sku.id);
  const pools = await poolsFor(ctx.db, sku.id, environment, allocation?.id ?? null);
  const [dedicated, shared] = await Promise.all([
    stockOf(ctx.db, pools.dedicated),
    stockOf(ctx.db, pools.shared),
  ]);
  const allocationRemaining = allocation && allocation.status === 'active' ? remainingOf(allocation) : 0;
  const unbounded = dedicated === null || shared === null;
  const dedicatedAvailable = dedicated ?? allocationRemaining;
  const sharedPoolAvailable = shared ?? allocationRemaining;
  const inventoryAvailable = unbounded
    ? Math.max(allocationRemaining, dedicatedAvailable + sharedPoolAvailable)
    : dedicatedAvailable + sharedPoolAvailable;
  const available = gate?.sellable ? Math.min(allocationRemaining, inventoryAvailable) : 0;
  const wanted = query.quantity ?? 1;
  const cannotFullyFulfill = wanted > available;

  let territory: Record<string, unknown> = {};
  if (query.country) {
    const terms = (await sellerTerms(ctx, sellerId, environment)).find(
      (t) => t.publisherCompanyId === sku.publisher_company_id,
    );
    const api = terms ? inForceApiAgreement(terms) : null;
    const priced = pricedCountriesByRelease(
      effectivePrices(await priceRowsOfReleases(ctx.db, [sku.release_id]), ctx.clock.now()),
    );
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
    requestable: allocation !== null && allocationRemaining === 0 && allocation.request_policy !== 'none',
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
