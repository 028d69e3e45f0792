import type { Generated } from 'kysely';

export type CompanyKind = 'seller' | 'publisher';

export interface CompaniesTable {
  id: string;
  name: string;
  kind: CompanyKind;
  country: string | null;
  production_access: Generated<number>;
  api_agreement_signed: Generated<number>;
  checkout_hold_enabled: Generated<number>;
  keyless_enabled: Generated<number>;
  preorder_verified_at: number | null;
  /** Publisher profile shown to sellers (GET /partners). */
  website: string | null;
  description: string | null;
  logo_url: string | null;
  created_at: number;
  updated_at: number;
}

export interface SellerFootprintsTable {
  company_id: string;
  /** JSON array of ISO 3166-1 alpha-2 codes. */
  countries: string;
  /** JSON array of ISO 4217 codes. */
  currencies: string;
  updated_at: number;
}
