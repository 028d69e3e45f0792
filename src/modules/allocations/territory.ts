/**
 * Whether a SKU can be sold into a country (GET /availability's `blockedReason`): the one predicate
 * that availability, preview, hold and reserve share. Checks run in a fixed order; the first that
 * fails names the reason.
 */
export type BlockedReason =
  | 'COUNTRY_RESTRICTED'
  | 'REGION_LOCKED_FOR_CONTRACT'
  | 'TERRITORY_EXCLUDED_FOR_RELEASE'
  | 'SKU_REGION_UNRESOLVED'
  | 'TERRITORY_NOT_ALLOWED_FOR_SKU'
  | 'REGION_LOCKED_FOR_SKU'
  | 'CATALOG_PRICE_NOT_SET';

/** Countries the platform never sells into (comprehensive embargoes). */
export const RESTRICTED_COUNTRIES: ReadonlySet<string> = new Set(['CU', 'IR', 'KP', 'SY']);

export interface TerritoryFacts {
  contractRegionLocks: readonly string[];
  releaseExcludedCountries: readonly string[];
  activationType: string;
  activationCountries: readonly string[] | null;
  skuRegionLocks: readonly string[];
  pricedCountries: ReadonlySet<string>;
}

export function territoryBlock(facts: TerritoryFacts, country: string): BlockedReason | null {
  const cc = country.toUpperCase();
  if (RESTRICTED_COUNTRIES.has(cc)) return 'COUNTRY_RESTRICTED';
  if (facts.contractRegionLocks.includes(cc)) return 'REGION_LOCKED_FOR_CONTRACT';
  if (facts.releaseExcludedCountries.includes(cc)) return 'TERRITORY_EXCLUDED_FOR_RELEASE';
  if (facts.activationType === 'unknown') return 'SKU_REGION_UNRESOLVED';
  if (facts.activationType === 'countries' && !(facts.activationCountries ?? []).includes(cc)) {
    return 'TERRITORY_NOT_ALLOWED_FOR_SKU';
  }
  if (facts.skuRegionLocks.includes(cc)) return 'REGION_LOCKED_FOR_SKU';
  if (!facts.pricedCountries.has(cc)) return 'CATALOG_PRICE_NOT_SET';
  return null;
}
