import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { instantOf, isoOf, isoOrNull } from '../../lib/clock.js';
import { activationOf } from './activation.js';
import type { LaunchPhase, TradingState } from './catalog.table.js';
import * as repo from './catalog-read.repo.js';
import {
  pricesByProduct,
  productBase,
  type SellerScope,
  usListPriceFrom,
  visibleProducts,
} from './catalog-read.service.js';
import type { EffectivePrice } from './pricing.js';

export interface ProductFilter {
  field: string;
  op: string;
  value: unknown;
}

export interface ProductListQuery {
  limit: number;
  before?: readonly [number, string];
  q?: string;
  publisherId?: string;
  slug?: string;
  updatedSince?: number;
  expand: Set<string>;
  chain: string[];
  filters: ProductFilter[];
}

/** Fields the `filters` query understands, with the operators each takes. */
export const FILTER_FIELDS: Record<string, readonly string[]> = {
  launchPhase: ['eq', 'in'],
  tradingState: ['eq', 'in'],
  slug: ['eq'],
  name: ['contains'],
  publisherCompanyId: ['eq'],
  updatedAt: ['gte'],
};

const asList = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
/** Two `in` conditions on one field hold together where their lists meet. */
const meet = <T>(held: T[] | undefined, next: T[]): T[] =>
  held ? held.filter((v) => next.includes(v)) : next;

/**
 * The query parameters and the `filters` array as one condition set: every parameter and every
 * filter must hold (a filter narrows the parameters, it never replaces one).
 */
function conditionsOf(
  query: ProductListQuery,
): Omit<repo.ProductListFilter, 'sellerId' | 'environment' | 'nowMs'> {
  const publisherIds = query.publisherId ? [query.publisherId] : [];
  const slugs = query.slug ? [query.slug] : [];
  const nameContains: string[] = [];
  let updatedSince = query.updatedSince;
  let launchPhases: LaunchPhase[] | undefined;
  let tradingStates: TradingState[] | undefined;
  for (const f of query.filters) {
    if (f.field === 'launchPhase') launchPhases = meet(launchPhases, asList(f.value) as LaunchPhase[]);
    if (f.field === 'tradingState') tradingStates = meet(tradingStates, asList(f.value) as TradingState[]);
    if (f.field === 'slug') slugs.push(String(f.value));
    if (f.field === 'name') nameContains.push(String(f.value));
    if (f.field === 'publisherCompanyId') publisherIds.push(String(f.value));
    if (f.field === 'updatedAt') updatedSince = Math.max(updatedSince ?? 0, instantOf(String(f.value)));
  }
  return { q: query.q, publisherIds, slugs, nameContains, updatedSince, launchPhases, tradingStates };
}

export async function expansions(
  ctx: AppContext,
  scope: SellerScope,
  rows: repo.ProductRow[],
  expand: Set<string>,
) {
  const ids = rows.map((r) => r.id);
  const [{ result: prices }, floors, skus] = await Promise.all([
    pricesByProduct(ctx, ids),
    expand.has('pricing')
      ? repo.wholesaleFloors(ctx.db, scope.sellerId, scope.environment, ids)
      : Promise.resolve([]),
    expand.has('availability') ? repo.skusOfProducts(ctx.db, ids) : Promise.resolve([]),
  ]);
  const availability = new Map<
    string,
    { available: number; allocationRemaining: number; inventoryAvailable: number; skuCount: number }
  >();
  if (expand.has('availability')) {
    const stock = await ctx.grants.stockForSkus(
      scope,
      skus.map((s) => s.id),
    );
    for (const sku of skus) {
      const item = stock.get(sku.id);
      const sum = availability.get(sku.product_id) ?? {
        available: 0,
        allocationRemaining: 0,
        inventoryAvailable: 0,
        skuCount: 0,
      };
      availability.set(sku.product_id, {
        available: sum.available + (item?.available ?? 0),
        allocationRemaining: sum.allocationRemaining + (item?.allocationRemaining ?? 0),
        inventoryAvailable: sum.inventoryAvailable + (item?.inventoryAvailable ?? 0),
        skuCount: sum.skuCount + 1,
      });
    }
  }
  return { prices, floors: new Map(floors.map((f) => [f.product_id, f.floor])), availability };
}

/** GET /products: visible products, newest first, with the requested expansions. */
export async function listProducts(ctx: AppContext, scope: SellerScope, query: ProductListQuery) {
  const rows = await visibleProducts(ctx, scope, {
    ...conditionsOf(query),
    before: query.before,
    limit: query.limit + 1,
  });
  const { prices, floors, availability } = await expansions(ctx, scope, rows, query.expand);
  return rows.map((row) => {
    const listPriceFromCents = usListPriceFrom(prices.get(row.id));
    return {
      ...productBase(row, query.chain, listPriceFromCents),
      ...(query.expand.has('availability')
        ? {
            availability: availability.get(row.id) ?? {
              available: 0,
              allocationRemaining: 0,
              inventoryAvailable: 0,
              skuCount: 0,
            },
          }
        : {}),
      ...(query.expand.has('pricing')
        ? { pricing: { wholesaleFromCents: floors.get(row.id) ?? null, listPriceFromCents } }
        : {}),
      cursorKey: [row.created_at, row.id] as [number, string],
    };
  });
}

async function requireVisible(ctx: AppContext, scope: SellerScope, productId: string) {
  const [row] = await visibleProducts(ctx, scope, { productIds: [productId] });
  if (!row) throw fail('NOT_FOUND', `Product ${productId} is not in your catalog.`);
  return row;
}

/** GET /products/{id}: the product with editions, releases, SKUs and pricing; related products that are visible. */
export async function productDetail(
  ctx: AppContext,
  scope: SellerScope,
  productId: string,
  chain: string[],
  baseOnly: boolean,
) {
  const row = await requireVisible(ctx, scope, productId);
  const { releases, result: prices } = await pricesByProduct(ctx, [productId]);
  const base = productBase(row, chain, usListPriceFrom(prices.get(productId)));
  const relations = await repo.relationsOf(ctx.db, productId);
  const visible = new Set(
    (await visibleProducts(ctx, scope, { productIds: relations.map((r) => r.target_product_id) })).map(
      (p) => p.id,
    ),
  );
  const relatedProducts = relations
    .filter((r) => visible.has(r.target_product_id))
    .map((r) => ({ type: r.type, productId: r.target_product_id }));
  if (baseOnly) return { data: base, relatedProducts };
  const [editions, skus] = await Promise.all([
    repo.editionsOf(ctx.db, productId),
    repo.skusOfProducts(ctx.db, [productId]),
  ]);
  const skuView = (s: (typeof skus)[number]) => ({
    id: s.id,
    code: s.code,
    platform: s.platform,
    releaseId: s.release_id,
    activation: activationOf(s),
    delisted: s.delisted === 1,
  });
  return {
    data: {
      ...base,
      editions: editions.map((e) => ({ id: e.id, name: e.name })),
      releases: releases.map((r) => ({
        id: r.id,
        name: r.name,
        editionId: r.edition_id,
        state: r.state,
        releaseDate: isoOrNull(r.release_date),
        excludedCountries: JSON.parse(r.excluded_countries) as string[],
        delisted: r.delisted === 1,
        skus: skus.filter((s) => s.release_id === r.id).map(skuView),
      })),
      skus: skus.map(skuView),
      pricing: (prices.get(productId) ?? []).map((p) => ({ releaseId: p.releaseId, ...priceView(p) })),
    },
    relatedProducts,
  };
}

const priceView = (p: EffectivePrice) => ({
  countryCode: p.countryCode,
  currencyCode: p.currencyCode,
  listPriceCents: p.listPriceCents,
  srpMinCents: p.srpMinCents,
  srpMaxCents: p.srpMaxCents,
  effectiveAt: isoOf(p.effectiveAt),
});

/** GET /products/{id}/pricing: prices per release and country (optionally some countries only). */
export async function productPricing(
  ctx: AppContext,
  scope: SellerScope,
  productId: string,
  countries: string[] | null,
  withProduct: boolean,
) {
  const row = await requireVisible(ctx, scope, productId);
  const { releases, result } = await pricesByProduct(ctx, [productId]);
  const prices = (result.get(productId) ?? []).filter((p) => !countries || countries.includes(p.countryCode));
  return releases.map((release) => ({
    releaseId: release.id,
    releaseName: release.name,
    prices: prices.filter((p) => p.releaseId === release.id).map(priceView),
    ...(withProduct ? { product: { id: row.id, name: row.name, slug: row.slug } } : {}),
  }));
}
