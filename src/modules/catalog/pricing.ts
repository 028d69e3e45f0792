import type { TerritoryPricesTable } from './catalog.table.js';

/** Territory price rows are a history: the effective price per country and currency is the newest row at or before now. */
export type PriceRow = Omit<TerritoryPricesTable, 'id' | 'created_at'>;

export interface EffectivePrice {
  releaseId: string;
  countryCode: string;
  currencyCode: string;
  listPriceCents: number;
  srpMinCents: number | null;
  srpMaxCents: number | null;
  effectiveAt: number;
}

/** Effective prices (removed ones left out), keyed `${releaseId}:${country}:${currency}`. */
export function effectivePrices(rows: readonly PriceRow[], nowMs: number): Map<string, EffectivePrice> {
  const newest = new Map<string, PriceRow>();
  for (const row of rows) {
    if (row.effective_at > nowMs) continue;
    const key = `${row.release_id}:${row.country_code}:${row.currency_code}`;
    const seen = newest.get(key);
    if (!seen || row.effective_at >= seen.effective_at) newest.set(key, row);
  }
  const result = new Map<string, EffectivePrice>();
  for (const [key, row] of newest) {
    if (row.list_price_cents === null) continue;
    result.set(key, {
      releaseId: row.release_id,
      countryCode: row.country_code,
      currencyCode: row.currency_code,
      listPriceCents: row.list_price_cents,
      srpMinCents: row.srp_min_cents,
      srpMaxCents: row.srp_max_cents,
      effectiveAt: row.effective_at,
    });
  }
  return result;
}

/** Countries with an effective price, per release. */
export function pricedCountriesByRelease(prices: Map<string, EffectivePrice>): Map<string, Set<string>> {
  const byRelease = new Map<string, Set<string>>();
  for (const price of prices.values()) {
    const set = byRelease.get(price.releaseId) ?? new Set<string>();
    set.add(price.countryCode);
    byRelease.set(price.releaseId, set);
  }
  return byRelease;
}
