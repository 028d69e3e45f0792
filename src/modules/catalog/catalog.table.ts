import type { Generated } from 'kysely';

export type ProductStatus = 'draft' | 'active' | 'discontinued' | 'archived';
export type LaunchPhase = 'announced' | 'pre_order' | 'released';
export type TradingState = 'trading' | 'suspended' | 'ended';
export type ReleaseState = 'planned' | 'announced' | 'available';
export type RelationType = 'requires' | 'includes' | 'upgrades' | 'edition_of';

export interface ProductsTable {
  id: string;
  publisher_company_id: string;
  environment: string;
  name: string;
  slug: string;
  /** JSON object: language tag -> text; `en` always present. */
  short_description: string;
  status: ProductStatus;
  launch_phase: LaunchPhase;
  trading_state: TradingState;
  is_archived: Generated<number>;
  /** A scheduled archive (delisting) instant. */
  archive_at: number | null;
  preorder_enabled: Generated<number>;
  preorder_start: number | null;
  preorder_end: number | null;
  /** JSON object or null. */
  cover: string | null;
  /** JSON array. */
  platforms: string;
  /** JSON array. */
  regions: string;
  /** Sandbox fixture knob: live and archived alternate every N hours of the service clock. */
  churn_period_hours: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProductRelationsTable {
  product_id: string;
  type: RelationType;
  target_product_id: string;
}

export interface EditionsTable {
  id: string;
  product_id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface ReleasesTable {
  id: string;
  product_id: string;
  edition_id: string | null;
  name: string;
  state: ReleaseState;
  release_date: number | null;
  /** JSON array of countries this release is not sold in. */
  excluded_countries: string;
  delisted: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface SkusTable {
  id: string;
  code: string;
  product_id: string;
  release_id: string;
  platform: string;
  activation_type: 'worldwide' | 'countries' | 'unknown';
  /** JSON array, or null when the type is worldwide or unknown. */
  activation_countries: string | null;
  /** JSON array of countries where the key cannot be activated, or null. */
  region_locks: string | null;
  delisted: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface TerritoryPricesTable {
  id: string;
  release_id: string;
  country_code: string;
  currency_code: string;
  /** Null removes the country's price from effective_at on. */
  list_price_cents: number | null;
  srp_min_cents: number | null;
  srp_max_cents: number | null;
  effective_at: number;
  created_at: number;
}

export interface ReferenceRatesTable {
  currency_code: string;
  /** Decimal string: units of this currency per one US dollar. */
  units_per_usd: string;
  updated_at: number;
}
