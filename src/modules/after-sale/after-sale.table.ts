/** `refund` (the buyer got money back at the seller's shop) or `chargeback` (the bank took it back). */
export type AdjustmentType = 'refund' | 'chargeback';
/** What created the adjustment: POST /refunds (refund or chargeback) or POST /keys/return. */
export type AdjustmentSource = 'refund' | 'chargeback' | 'return';
/** Where the key went: out of circulation for good, or back to its pool for resale. */
export type KeyOutcome = 'quarantined' | 'restocked';

/** One refund or chargeback adjustment (docs/after-sale.md); amounts are minor units. */
export interface RefundsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  api_key_id: string;
  /** The namespace of references: the company, or the API key in sandbox (as order references). */
  reference_owner: string;
  adjustment_type: AdjustmentType;
  source: AdjustmentSource;
  /** refundReference or chargebackReference; null for a return that moved money. */
  reference: string | null;
  /** SHA-256 of the sorted key ids: the same reference with other keys is a conflict. */
  key_set_digest: string;
  /** JSON array of key ids, sorted. */
  key_ids: string;
  /** JSON array of the order references the keys were sold under. */
  order_references: string;
  /** JSON array of `{currencyCode, grossCents, wholesaleCents}`. */
  amounts: string;
  /** JSON array of the `sale_reversal` finance rows this adjustment wrote. */
  reversal_ids: string;
  reason: string | null;
  /** A chargeback the seller won, reinstated by the operator. */
  reinstated_at: number | null;
  created_at: number;
}

/** A key a refund, chargeback or return took back, with why and when. */
export interface RefundKeysTable {
  order_id: string;
  key_id: string;
  seller_company_id: string;
  environment: string;
  order_reference: string;
  publisher_company_id: string;
  sku_code: string;
  /** The adjustment that moved money for this key, if any. */
  refund_id: string | null;
  /** The POST /keys/return that handed the key back, if any. */
  return_id: string | null;
  cause: AdjustmentSource;
  outcome: KeyOutcome;
  reason: string | null;
  reinstated_at: number | null;
  created_at: number;
}

/** A delivered key the seller's buyer reported, swapped for one new key of the same grant. */
export interface KeyReplacementsTable {
  id: string;
  seller_company_id: string;
  environment: string;
  order_id: string;
  order_reference: string;
  allocation_id: string;
  /** Unique: a key is replaced once (its replacement may be replaced in turn). */
  replaced_key_id: string;
  key_id: string;
  reason: string | null;
  created_at: number;
}
