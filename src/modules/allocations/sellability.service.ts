import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import {
  effectivePrices,
  type PriceRow,
  pricedCountriesByRelease,
  priceRowsOfReleases,
} from '../catalog/index.js';
import { emit } from '../events/index.js';
import { evaluateSellability, type Sellability } from './sellability.js';
import * as repo from './sellability.repo.js';

export interface SkuSellability extends Sellability {
  skuId: string;
  skuCode: string;
  productId: string;
}

/**
 * Rows a caller has already read (or is reading) for exactly these SKUs, so that the
 * sellability function does not read them again: the seller's allocations on the SKUs and the
 * price rows of their releases.
 */
export interface KnownSellabilityRows {
  allocations?: PromiseLike<readonly { sku_id: string; status: string }[]>;
  priceRows?: PromiseLike<PriceRow[]>;
  /** The gate rows (`sellabilityGateRows`) of exactly the SKUs asked about. */
  gateRows?: PromiseLike<SellabilityGateRow[]>;
}

/** What sellability reads about a seller's SKUs (share, product, release, SKU); callers may cache it. */
export const sellabilityGateRows = repo.skuGateRows;
export type SellabilityGateRow = Awaited<ReturnType<typeof repo.skuGateRows>>[number];

/** The one sellability function every feature calls: SKU id -> gates for this seller now. */
export async function computeSellability(
  ctx: AppContext,
  ex: Executor,
  sellerId: string,
  environment: string,
  skuIds: readonly string[],
  known?: KnownSellabilityRows,
): Promise<Map<string, SkuSellability>> {
  const result = new Map<string, SkuSellability>();
  if (skuIds.length === 0) return result;
  const [rows, allocations] = await Promise.all([
    known?.gateRows ?? repo.skuGateRows(ex, sellerId, environment, skuIds),
    known?.allocations ?? repo.allocationStatuses(ex, sellerId, environment, skuIds),
  ]);
  const now = ctx.clock.now();
  const priceRows = await (known?.priceRows ??
    priceRowsOfReleases(ex, [...new Set(rows.map((r) => r.release_id))]));
  const priced = pricedCountriesByRelease(effectivePrices(priceRows, now));
  for (const row of rows) {
    const gates = evaluateSellability(
      {
        skuShared: row.share_id !== null,
        sharesSuspended: row.shares_suspended === 1,
        allocationStatuses: allocations.filter((a) => a.sku_id === row.sku_id).map((a) => a.status),
        productStatus: row.product_status,
        productArchived: row.is_archived === 1,
        tradingState: row.trading_state,
        launchPhase: row.launch_phase,
        releaseState: row.release_state,
        releaseDelisted: row.release_delisted === 1,
        skuDelisted: row.sku_delisted === 1,
        churnPeriodHours: row.churn_period_hours,
        pricedCountries: priced.get(row.release_id)?.size ?? 0,
      },
      now,
    );
    result.set(row.sku_id, { ...gates, skuId: row.sku_id, skuCode: row.sku_code, productId: row.product_id });
  }
  return result;
}

/**
 * Recomputes sellability after a publisher-side change, inside its transaction, and announces
 * every flip with `sku.sellability_changed`. The last known state is stored per
 * seller and SKU; a SKU never evaluated before counts as not sellable.
 */
export async function refreshSellability(
  ctx: AppContext,
  trx: Executor,
  sellerId: string,
  environment: string,
  skuIds: readonly string[],
): Promise<void> {
  if (skuIds.length === 0) return;
  const current = await computeSellability(ctx, trx, sellerId, environment, skuIds);
  const stored = new Map((await repo.storedStates(trx, sellerId, skuIds)).map((s) => [s.sku_id, s]));
  const now = ctx.clock.now();
  for (const state of current.values()) {
    const before = stored.get(state.skuId);
    const reasons = JSON.stringify(state.readinessBlockers);
    if (before && before.sellable === (state.sellable ? 1 : 0) && before.reasons === reasons) continue;
    await repo.storeState(trx, sellerId, state.skuId, state.sellable, state.readinessBlockers, now);
    const flipped = (before?.sellable === 1) !== state.sellable;
    if (!flipped) continue;
    await emit(ctx, trx, [{ companyId: sellerId, environment }], 'sku.sellability_changed', {
      skuId: state.skuId,
      skuCode: state.skuCode,
      productId: state.productId,
      sellable: state.sellable,
      reasons: state.readinessBlockers,
    });
  }
}

/** After a change to a publisher's catalog: every connected seller, every given SKU. */
export async function refreshForPublisher(
  ctx: AppContext,
  trx: Executor,
  publisherId: string,
  environment: string,
  skuIds?: readonly string[],
): Promise<void> {
  const skus = skuIds ?? (await repo.publisherSkuIds(trx, publisherId, environment)).map((r) => r.id);
  for (const { seller_company_id } of await repo.connectedSellers(trx, publisherId, environment)) {
    await refreshSellability(ctx, trx, seller_company_id, environment, skus);
  }
}
