import type { AppContext } from '../../../context.js';
import type { ApiError } from '../../../http/errors.js';
import { type AllocationRow, computeSellability, sellabilityGateRows } from '../../allocations/index.js';
import { type PriceRow, priceRowsOfReleases } from '../../catalog/index.js';
import { companyFacts } from '../../companies/index.js';
import { attestedCountry } from '../../geo-attest/index.js';
import { type PoolRow, poolsOfSku } from '../../inventory/index.js';
import { sellerTerms } from '../../partners/index.js';
import { type CheckoutSku, referenceRates } from './checkout.repo.js';
import { hotReads } from './hot-reads.js';
import type { LiveReads } from './hot-reads.repo.js';
import type { CheckoutMode, LineInput, SellerActor } from './quote.js';

/**
 * The read stage of a checkout line: everything its gates judge, read at once, so that the
 * judge (judge-line.ts) is a function of this snapshot, the seller and the request, with no
 * I/O. Catalog reads come from the cache of the current catalog version (hot-reads.ts):
 * preview answers with the grant's counters, so it reads the grants (with visibility and
 * promotions) each time; every other mode proves the counters in its own statements and
 * takes them cached too.
 */
export interface LineSnapshot {
  now: number;
  /** The catalog version judged under, if nobody read it: see `HotReads`. */
  versionToProve: number | null;
  /** The SKU as the seller can see it; null when the line names none, or it is not in the seller's catalog. */
  seen: SeenSku | null;
}

export interface SeenSku {
  sku: CheckoutSku;
  allocations: AllocationRow[];
  promotionRows: LiveReads['promotionRows'];
  terms: Awaited<ReturnType<typeof sellerTerms>>;
  sellability: Awaited<ReturnType<typeof computeSellability>>;
  facts: Awaited<ReturnType<typeof companyFacts>>;
  priceRows: PriceRow[];
  rates: Map<string, string>;
  pools: PoolRow[];
  /** The geo attestation the line names: what it observed, or why it cannot be used; null when none. */
  attestation: { countryCode: string | null } | ApiError | null;
}

export async function readLine(
  ctx: AppContext,
  actor: SellerActor,
  input: LineInput,
  mode: CheckoutMode,
  speculate: boolean,
): Promise<LineSnapshot> {
  const now = ctx.clock.now();
  const { sellerId, environment } = actor;
  const skuCode = input.skuCode;
  if (!skuCode) return { now, versionToProve: null, seen: null };
  const hot = await hotReads(ctx, {
    sellerId,
    environment,
    skuCode,
    now,
    countersProven: mode !== 'preview',
    speculate,
  });
  const { reads: cached, sku, allocations, promotionRows, versionToProve } = hot;
  if (!sku || !hot.visible) return { now, versionToProve, seen: null };
  const priceRowsRead = cached.get(`prices:${sku.release_id}`, () =>
    priceRowsOfReleases(ctx.db, [sku.release_id]),
  );
  const [terms, sellability, facts, priceRows, rates, pools, attestation] = await Promise.all([
    cached.get(`terms:${sellerId}:${environment}`, () => sellerTerms(ctx, sellerId, environment)),
    computeSellability(ctx, ctx.db, sellerId, environment, [sku.id], {
      allocations: Promise.resolve(allocations),
      priceRows: priceRowsRead,
      gateRows: cached.get(`gates:${sellerId}:${environment}:${sku.id}`, () =>
        sellabilityGateRows(ctx.db, sellerId, environment, [sku.id]),
      ),
    }),
    companyFacts(ctx, sellerId),
    priceRowsRead,
    cached.get('rates', () => referenceRates(ctx.db)),
    cached.get(`pools:${sku.id}`, () => poolsOfSku(ctx.db, sku.id)),
    input.consumerGeoAttestId
      ? attestedCountry(ctx.db, actor, input.consumerGeoAttestId, input.orderReference, now)
      : null,
  ]);
  return {
    now,
    versionToProve,
    seen: {
      sku,
      allocations,
      promotionRows,
      terms,
      sellability,
      facts,
      priceRows,
      rates,
      pools,
      attestation,
    },
  };
}
