import type { Generated } from 'kysely';

export type CatalogChangeType = 'added' | 'updated' | 'removed';
export type ChangedField = 'pricing' | 'availability' | 'metadata' | 'territory' | 'relationships';

export interface CatalogChangesTable {
  seq: Generated<number>;
  seller_company_id: string;
  environment: string;
  product_id: string;
  type: CatalogChangeType;
  /** JSON array of ChangedField; empty means unknown (refetch the whole product). */
  changed_fields: string;
  occurred_at: number;
}

export interface OutboxEventsTable {
  seq: Generated<number>;
  event_id: string;
  company_id: string;
  environment: string;
  event_type: string;
  event_version: number;
  /** JSON of the envelope's `data`. */
  payload: string;
  /** Microseconds since the epoch (GET /events keeps microsecond precision). */
  created_at_us: number;
  /** Epoch ms before which the delivery worker leaves the event alone. */
  deliver_after: number;
  /** Set for events addressed to one webhook endpoint alone (`test.ping`). */
  target_endpoint_id: string | null;
  /**
   * Publication order, assigned after commit by the one publisher at a time (webhooks module):
   * GET /events and delivery read in this order, so a late commit is never skipped.
   */
  published_seq: number | null;
  /** Microseconds; strictly increasing with published_seq. */
  published_at_us: number | null;
}
