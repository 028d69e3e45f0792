import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { SellerScope } from '../../http/auth/principal.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import * as repo from './catalog-read.repo.js';
import { pickLocalized } from './locale.js';
import { type EffectivePrice, effectivePrices } from './pricing.js';
import { priceRowsOfReleases } from './pricing.repo.js';

export type { SellerScope } from '../../http/auth/principal.js';

const json = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/** Visible now on the service clock (docs/seller-reads.md, "Visibility"). */
export function visibleProducts(
  ctx: AppContext,
  scope: SellerScope,
  filter: Omit<repo.ProductListFilter, keyof SellerScope | 'nowMs'> = {},
) {
  return repo.listVisibleProducts(ctx.db, { ...scope, ...filter, nowMs: ctx.clock.now() });
}

/** Effective prices of the products' releases, keyed by product id. */
export async function pricesByProduct(ctx: AppContext, productIds: readonly string[]) {
  const releases = await repo.releasesOfProducts(ctx.db, productIds);
  const prices = effectivePrices(
    await priceRowsOfReleases(
      ctx.db,
      releases.map((r) => r.id),
    ),
    ctx.clock.now(),
  );
  const productOf = new Map(releases.map((r) => [r.id, r.product_id]));
  const result = new Map<string, EffectivePrice[]>();
  for (const price of prices.values()) {
    const productId = productOf.get(price.releaseId)!;
    result.set(productId, [...(result.get(productId) ?? []), price]);
  }
  return { releases, result };
}

/** The US list price (SRP) in USD, the lowest where several are set; null where none is. */
export const usListPriceFrom = (prices: readonly EffectivePrice[] | undefined): number | null => {
  const us = (prices ?? [])
    .filter((p) => p.countryCode === 'US' && p.currencyCode === 'USD')
    .map((p) => p.listPriceCents);
  return us.length > 0 ? Math.min(...us) : null;
};

/** The product fields every list and detail shows. Visible products always carry `active`. */
export function productBase(
  row: repo.ProductRow,
  chain: readonly string[],
  listPriceFromCents: number | null,
) {
  return {
    id: row.id,
    publisherCompanyId: row.publisher_company_id,
    name: row.name,
    slug: row.slug,
    shortDescription: pickLocalized(json<Record<string, string>>(row.short_description, {}), chain),
    status: 'active' as const,
    launchPhase: row.launch_phase,
    tradingState: row.trading_state,
    isArchived: false,
    listPriceFromCents,
    cover: json<Record<string, unknown> | null>(row.cover, null),
    platforms: json<unknown[]>(row.platforms, []),
    regions: json<unknown[]>(row.regions, []),
    preorderWindow: row.preorder_enabled
      ? { start: isoOrNull(row.preorder_start), end: isoOrNull(row.preorder_end) }
      : null,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

export const CHECKSUM_ALGORITHM = 'sha256-sorted-product-rows-v1' as const;

/**
 * `sha256-sorted-product-rows-v1`: for each visible product the line `<id>\t<updatedAt>\n`, where
 * updatedAt is the ISO 8601 UTC form GET /products shows (milliseconds, `Z`); lines sorted by id
 * in byte order; the digest is lowercase hex SHA-256 of their concatenation.
 */
export function catalogDigest(rows: readonly { id: string; updatedAt: string }[]): string {
  const hash = createHash('sha256');
  for (const row of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    hash.update(`${row.id}\t${row.updatedAt}\n`);
  return hash.digest('hex');
}

export async function catalogChecksum(ctx: AppContext, scope: SellerScope, publisherId?: string) {
  const rows = (await visibleProducts(ctx, scope, publisherId ? { publisherIds: [publisherId] } : {})).map(
    (r) => ({
      id: r.id,
      updatedAt: isoOf(r.updated_at),
      ms: r.updated_at,
    }),
  );
  return {
    digestAlgorithm: CHECKSUM_ALGORITHM,
    digest: catalogDigest(rows),
    productCount: rows.length,
    maxUpdatedAt: rows.length > 0 ? isoOf(Math.max(...rows.map((r) => r.ms))) : null,
    computedAt: isoOf(ctx.clock.now()),
  };
}
