import type { Generated } from 'kysely';

export type SaleEntryType = 'sale' | 'sale_reversal';

/** A finance sale line, written in the fulfilment's transaction. Amounts are minor units. */
export interface SaleLinesTable {
  id: string;
  seller_company_id: string;
  environment: string;
  order_id: string;
  order_reference: string;
  entry_type: SaleEntryType;
  reverses_transaction_id: string | null;
  publisher_company_id: string;
  sku_id: string;
  sku_code: string;
  quantity: number;
  unit_price_cents: number;
  /** unit price x quantity, after promotion. */
  sale_price_cents: number;
  /** list price x quantity, before promotion. */
  initial_sale_price_cents: number;
  currency_code: string;
  wholesale_cents: number | null;
  wholesale_currency_code: string | null;
  /** JSON `{sourceType, sourceId}` or null. */
  promo: string | null;
  /** JSON echo of the declaration (integrationOrderContext without consumerIp). */
  tax_metadata: string;
  customer_region_code: string;
  detected_country_code: string | null;
  country_mismatch: number;
  /** JSON array of codes such as `COUNTRY_MISMATCH`. */
  warnings: string;
  consumer_ip_hash: string | null;
  /** 1 on rows recorded before buyer-IP hashing (imported history): no hash was ever kept. */
  consumer_ip_redacted: Generated<number>;
  /** JSON settlement object or null. */
  settlement: string | null;
  created_at: number;
}

export type ActivityKind = 'sale' | 'refund' | 'chargeback' | 'pull' | 'reveal' | 'replacement';

/** Settlement activity (GET /activity): one entry per movement, signed per kind. */
export interface ActivityEntriesTable {
  id: string;
  seller_company_id: string;
  environment: string;
  kind: ActivityKind;
  /** +1 sale and pull, -1 refund and chargeback, 0 reveal and replacement. */
  sign: number;
  order_id: string;
  order_reference: string;
  counterparty_company_id: string;
  sku_code: string;
  quantity: number;
  promo_id: string | null;
  /** JSON `{declaredCountry, detectedCountry, countryMismatch, evidenceRank}`. */
  buyer_country: string;
  /** JSON `{currencyCode, saleMinor, wholesaleMinor, wholesaleCurrencyCode}`. */
  economics: string;
  created_at: number;
}

/** A month closed by the operator: the statement of that month, frozen as an invoice document. */
export interface FinanceInvoicesTable {
  id: string;
  seller_company_id: string;
  environment: string;
  /** `YYYY-MM` (UTC calendar month). */
  period: string;
  period_start: number;
  period_end: number;
  /** JSON: the statement lines of the month, as they were at closing. */
  document: string;
  created_at: number;
}

export type ReportStatus = 'pending' | 'ready' | 'failed';

/** An asynchronous report (activity CSV), kept gzip-compressed until expires_at. */
export interface FinanceReportsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  report_type: string;
  /** JSON of the activity filters the report was asked with. */
  filters: string;
  status: ReportStatus;
  artifact: Buffer | null;
  /**
   * The report whose row holds the gzip this one was built with (its own id, or the first report
   * of the build that took it); null until a build takes it, and on reports built before builds
   * were shared (they hold their own).
   */
  artifact_of: string | null;
  checksum: string | null;
  bytes: number | null;
  row_count: number | null;
  error: string | null;
  created_at: number;
  completed_at: number | null;
  expires_at: number | null;
}

/** API calls per company, environment, UTC day and route class (flushed in batches). */
export interface ApiUsageDailyTable {
  company_id: string;
  environment: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  route_class: string;
  calls: number;
}

/**
 * Running totals of the sale lines (migrations 0024 and 0039): kept by a trigger in the statement
 * that inserts the line, per span (`month` to `second`) and bucket start (UTC epoch ms), sale and
 * wholesale currency (`''` when none) and shard (the writer's connection on PostgreSQL, 0 on
 * SQLite). A bucket's figure is the sum over its shards.
 */
export interface SaleTotalsTable {
  seller_company_id: string;
  environment: string;
  span: 'month' | 'day' | 'hour' | 'minute' | 'second';
  bucket_start: number;
  currency_code: string;
  wholesale_currency_code: string;
  shard: number;
  gross: number;
  reversed: number;
  reinstated: number;
  sale_count: number;
  reversal_count: number;
  reinstatement_count: number;
  keys_sold: number;
  keys_reversed: number;
  wholesale: number;
}

/** Keys moved to a seller (`sale` and `pull` activity) per UTC day index, kept like sale_totals. */
export interface ActivityDayTotalsTable {
  seller_company_id: string;
  environment: string;
  day: number;
  shard: number;
  keys: number;
}
