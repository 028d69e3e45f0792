import type { Generated } from 'kysely';

export type CatalogShareMode = 'whole_catalog' | 'per_sku';
export type AgreementKind = 'bma' | 'mca';
export type AgreementStatus = 'pending' | 'active' | 'paused' | 'superseded' | 'terminated';
export type ConsumerGeoPolicy = 'allow' | 'flag' | 'refuse';

export interface PartnerConnectionsTable {
  id: string;
  seller_company_id: string;
  publisher_company_id: string;
  environment: string;
  invoicing_enabled: Generated<number>;
  self_billing: Generated<number>;
  catalog_share_mode: CatalogShareMode;
  shares_suspended: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface AgreementsTable {
  id: string;
  connection_id: string;
  kind: AgreementKind;
  /** For BMAs: the business model it covers, such as `api`. */
  bma_type: string | null;
  status: AgreementStatus;
  /** `catalog` (list currency only) or `custom` (currency_detail decides). */
  currency_mode: string;
  /** JSON object: currency code -> array of countries, or the string `territory`. */
  currency_detail: string;
  /** `own_storefront` or `own_storefront_plus_named_marketplaces`. */
  permitted_channels: string;
  /** JSON array of marketplace slugs. */
  marketplace_slugs: string;
  consumer_geo_policy: ConsumerGeoPolicy;
  /** JSON array of countries the publisher locks away from this seller. */
  region_locks: string;
  superseded_by: string | null;
  activated_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AgreementAmendmentsTable {
  id: string;
  agreement_id: string;
  description: string;
  status: 'proposed' | 'accepted';
  created_at: number;
  accepted_at: number | null;
}
