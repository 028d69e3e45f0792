/** An in-app notice (docs/console.md, "Notices"); read for the whole company once someone reads it. */
export interface ConsoleNoticesTable {
  id: string;
  company_id: string;
  environment: string;
  /** endpoint_disabled, allocation_depleted, allocation_low_stock, contract_paused, contract_superseded, delisting_scheduled. */
  kind: string;
  /** What the notice is about: an endpoint, allocation, contract or product id. */
  subject: string;
  /** JSON object of the facts the sentence is built from. */
  detail: string;
  /** What wrote it, unique: `event:<event id>` or `contract_paused:<contract id>:<at>`. */
  source: string;
  created_at: number;
  read_at: number | null;
  /** `user:<email>` of whoever marked it read. */
  read_by: string | null;
}

/** How far the notice job has read the published event feed. */
export interface ConsoleNoticeCursorTable {
  name: string;
  published_seq: number;
}
