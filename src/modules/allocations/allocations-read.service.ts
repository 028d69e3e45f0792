import type { AppContext } from '../../context.js';
import { isoOf } from '../../lib/clock.js';
import { activationOf } from '../catalog/index.js';
import { remainingOf } from './allocations.service.js';
import { type AllocationListRow, listAllocations } from './allocations-read.repo.js';
import { refundPolicyOf } from './refund-policy.js';
import { replacementPolicyOf } from './replacement-policy.js';
import { computeSellability } from './sellability.service.js';

export interface AllocationQuery {
  sellableOnly: boolean;
  limit: number;
  after?: readonly [number, string];
  updatedSince?: number;
}

/** One allocation as GET /allocations shows it. */
async function allocationItems(
  ctx: AppContext,
  sellerId: string,
  environment: string,
  rows: AllocationListRow[],
) {
  const gates = await computeSellability(ctx, ctx.db, sellerId, environment, [
    ...new Set(rows.map((r) => r.sku_id)),
  ]);
  return rows.map((row) => {
    const gate = gates.get(row.sku_id);
    const blockers = gate?.readinessBlockers ?? [];
    return {
      id: row.id,
      readableId: row.readable_id,
      createdAt: isoOf(row.created_at),
      publisherCompanyId: row.publisher_company_id,
      publisherCompanyName: row.publisher_name,
      productId: row.product_id,
      skuId: row.sku_id,
      skuCode: row.sku_code,
      productName: row.product_name,
      quantityLimit: row.quantity_limit,
      quantityPulled: row.quantity_pulled,
      remaining: remainingOf(row),
      status: row.status,
      paymentStatus: row.payment_status,
      businessModel: row.business_model,
      pricePerKeyCents: row.price_per_key_cents,
      currencyCode: row.currency_code,
      currencyExponent: row.currency_exponent,
      shareActive: !blockers.includes('NO_SKU_SHARE'),
      catalogVisible: !blockers.includes('NO_SKU_SHARE'),
      territoryPricingSet: !blockers.includes('NO_TERRITORY_PRICING'),
      sellable: gate?.sellable ?? false,
      readinessBlockers: blockers,
      recommendedAction: gate?.recommendedAction ?? null,
      updatedAt: isoOf(row.updated_at),
      activation: activationOf(row),
      refundPolicy: refundPolicyOf(row.refund_policy),
      replacementPolicy: replacementPolicyOf(row.replacement_policy),
      consumerGeoAttestRequired: row.consumer_geo_attest_required === 1,
      hotDrop: row.hot_drop === 1,
      reservationMaxQuantity: row.reservation_max_quantity,
      holdsEnabled: row.holds_enabled === 1,
      lowStockThreshold: row.low_stock_threshold,
    };
  });
}

export type AllocationItem = Awaited<ReturnType<typeof allocationItems>>[number];

/**
 * `updatedSince` is served from this much earlier (a few seconds of overlap), so a row
 * committed late with an earlier stamp is not missed; the reply warns with UPDATED_SINCE_OVERLAP.
 */
export const UPDATED_SINCE_OVERLAP_MS = 5_000;

/**
 * A page of the seller's allocations; with `sellableOnly`, rows are read in chunks until the page
 * is full, so a page is never short while more sellable rows exist.
 */
export async function pageAllocations(
  ctx: AppContext,
  sellerId: string,
  environment: string,
  query: AllocationQuery,
) {
  const wanted = query.limit + 1;
  const items: AllocationItem[] = [];
  const keys: [number, string][] = [];
  let after = query.after;
  for (;;) {
    const rows = await listAllocations(ctx.db, {
      sellerId,
      environment,
      updatedSince:
        query.updatedSince === undefined ? undefined : query.updatedSince - UPDATED_SINCE_OVERLAP_MS,
      after,
      limit: wanted,
    });
    const built = await allocationItems(ctx, sellerId, environment, rows);
    built.forEach((item, i) => {
      if (items.length < wanted && (!query.sellableOnly || item.sellable)) {
        items.push(item);
        keys.push([rows[i]!.updated_at, rows[i]!.id]);
      }
    });
    const last = rows.at(-1);
    if (items.length >= wanted || rows.length < wanted || !last) break;
    after = [last.updated_at, last.id];
  }
  return { items, keys };
}
