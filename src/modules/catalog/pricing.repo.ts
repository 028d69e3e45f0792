import type { Executor } from '../../db/database.js';
import type { PriceRow } from './pricing.js';

export function priceRowsOfReleases(ex: Executor, releaseIds: readonly string[]): Promise<PriceRow[]> {
  if (releaseIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('territory_prices')
    .select([
      'release_id',
      'country_code',
      'currency_code',
      'list_price_cents',
      'srp_min_cents',
      'srp_max_cents',
      'effective_at',
    ])
    .where('release_id', 'in', releaseIds)
    .execute();
}
