/** What a fulfilment row is: a priced checkout order, a custody pull, or a pull delivered as a ZIP. */
export type OrderKind = 'order' | 'pull' | 'export';
/**
 * How the keys travel: in the response (`keys`), claimed but revealed later (`deferred`, also
 * a pre-order converted at release), through a hosted redemption record (`keyless`), not yet
 * (`preorder`, nothing claimed) or never (`cancelled`: a pre-order cancelled before release).
 */
export type Delivery = 'keys' | 'deferred' | 'keyless' | 'preorder' | 'cancelled' | 'failed';

/** The order aggregate (docs/checkout.md): one row per fulfilment, keys linked by game_keys.order_id. */
export interface OrdersTable {
  id: string;
  readable_id: string;
  seller_company_id: string;
  environment: string;
  api_key_id: string;
  /** The namespace of order references: the company, or the API key in sandbox. */
  reference_owner: string;
  order_reference: string;
  kind: OrderKind;
  /** 1 when the order was written as a line of POST /orders/bulk (set in its insert), else 0. */
  bulk_line: number;
  delivery: Delivery;
  sku_id: string;
  sku_code: string;
  product_id: string;
  allocation_id: string;
  publisher_company_id: string;
  quantity: number;
  pulled: number;
  unit_price_cents: number | null;
  initial_unit_price_cents: number | null;
  currency_code: string | null;
  country_code: string | null;
  wholesale_unit_price_cents: number | null;
  wholesale_currency_code: string | null;
  /** JSON `{sourceType, sourceId, discountPercent}` or null. */
  promo: string | null;
  hold_id: string | null;
  /**
   * The hot-drop reservation this order committed (`POST /orders/commit`), set in the order's
   * own insert; null for every other order. The one record of which reservation an order came
   * from (migration 0035; orders before it linked where the match was unambiguous).
   */
  reservation_id: string | null;
  consumer_geo_attest_id: string | null;
  detected_country_code: string | null;
  country_mismatch: number;
  consumer_ip_hash: string | null;
  /** JSON of the declaration without `consumerIp` (never stored), or null. */
  integration_context: string | null;
  /** JSON array of `{code, message}`. */
  warnings: string;
  contract_date: string;
  revealed_at: number | null;
  created_at: number;
  updated_at: number;
}

export type HoldStatus = 'active' | 'consumed' | 'expired' | 'released' | 'cancelled';

export interface CheckoutHoldsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  api_key_id: string;
  allocation_id: string;
  sku_id: string;
  sku_code: string;
  quantity: number;
  country_code: string;
  currency_code: string;
  order_reference: string;
  unit_price_cents: number;
  initial_unit_price_cents: number;
  promo: string | null;
  /** Stored state; an `active` row past `expires_at` is expired (see holds.service). */
  status: HoldStatus;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

/** A keyless fulfilment: the key stays with the service behind a hosted redemption record. */
export interface RedemptionsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  order_id: string;
  order_reference: string;
  sku_id: string;
  platform_code: string;
  expires_at: number;
  expiring_notified_at: number | null;
  expired_notified_at: number | null;
  created_at: number;
  /** SHA-256 (hex) of the link's token: how the hosted page finds the record. Null: no live link. */
  token_hash: string | null;
  /** The token sealed under the master key, so the order's replay can show the link again. */
  token_sealed: string | null;
  revoked_at: number | null;
  /** The buyer's first reveal on the hosted page. */
  revealed_at: number | null;
}

/** One row (id 1): bumped in the same transaction as every change checkout's quote caches. */
export interface CatalogVersionTable {
  id: number;
  version: number;
  /** PostgreSQL: the transaction that bumped it last (one bump per transaction). */
  bumped_by: number | null;
}
