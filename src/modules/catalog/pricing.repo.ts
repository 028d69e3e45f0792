import type { Executor } from '../../db/database.js';
import type { PriceRow } from './pricing.js';

const PRICE_COLUMNS = [
  'release_id',
  'country_code',
  'currency_code',
  'list_price_cents',
  'srp_min_cents',
  'srp_max_cents',
  'effective_at',
] as const;

export function priceRowsOfReleases(ex: Executor, releaseIds: readonly string[]): Promise<PriceRow[]> {
  if (releaseIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('territory_prices')
    .select(PRICE_COLUMNS)
    .where('release_id', 'in', releaseIds)
    .execute();
}

/** The price history of one release, country and currency. */
export function priceRowsOf(
  ex: Executor,
  releaseId: string,
  countryCode: string,
  currencyCode: string,
): Promise<PriceRow[]> {
  return ex
    .selectFrom('territory_prices')
    .select(PRICE_COLUMNS)
    .where('release_id', '=', releaseId)
    .where('country_code', '=', countryCode)
    .where('currency_code', '=', currencyCode)
    .execute();
}
