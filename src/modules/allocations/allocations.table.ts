import type { Generated } from 'kysely';

export type AllocationStatus = 'active' | 'paused' | 'revoked';

export interface SharesTable {
  id: string;
  connection_id: string;
  seller_company_id: string;
  publisher_company_id: string;
  environment: string;
  /** A SKU share: the SKU passes the share gate of sellability for this seller. */
  sku_id: string;
  active: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface AllocationsTable {
  id: string;
  readable_id: string;
  seller_company_id: string;
  publisher_company_id: string;
  connection_id: string;
  environment: string;
  sku_id: string;
  quantity_limit: number;
  quantity_pulled: Generated<number>;
  price_per_key_cents: number | null;
  currency_code: string | null;
  currency_exponent: number | null;
  business_model: string;
  status: AllocationStatus;
  payment_status: string;
  hot_drop: Generated<number>;
  holds_enabled: Generated<number>;
  /** The most keys one hot-drop reservation may take (422 QUANTITY_INVALID above it). */
  reservation_max_quantity: Generated<number>;
  low_stock_threshold: number | null;
  /** JSON RefundPolicy, or null for the platform default. */
  refund_policy: string | null;
  /** JSON `{maxPerOrder, windowDays}` (docs/after-sale.md), or null for the platform's. */
  replacement_policy: string | null;
  consumer_geo_attest_required: Generated<number>;
  /** `none`, `manual` or `auto` (requests up to auto_approve_max resolve at once). */
  request_policy: string;
  auto_approve_max: number | null;
  /** Bumped under the row lock by every new promise (hold, pre-order): see docs/checkout.md. */
  promise_version: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface SkuSellabilityTable {
  seller_company_id: string;
  sku_id: string;
  sellable: number;
  /** JSON array of blocker codes. */
  reasons: string;
  updated_at: number;
}

export type AllocationRequestStatus = 'pending' | 'approved' | 'rejected';

export interface AllocationRequestsTable {
  id: string;
  allocation_id: string;
  seller_company_id: string;
  environment: string;
  requested_quantity: number;
  declared_forecast: number | null;
  publisher_available_keys: number | null;
  status: AllocationRequestStatus;
  approved_quantity: number | null;
  resolution_reason: string | null;
  resolved_at: number | null;
  created_at: number;
}

/** Where a time-driven sweep has looked up to (migration 0023). */
export interface TimeSweepsTable {
  name: string;
  swept_until: number;
}
