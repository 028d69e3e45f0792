import type { Claim } from '../../../http/idempotency/record-key.js';
import type { SimulateValue } from '../../../http/simulate.js';
import type { Delivery, OrderKind } from '../checkout.table.js';
import type { Quote, SellerActor } from '../line/quote.js';
import type { ConsumedReservation } from '../reservations/consume.js';

/** What an order asks of its fulfilment: the judged quote and everything the order row records. */
export interface FulfilRequest {
  actor: SellerActor;
  quote: Quote;
  kind: OrderKind;
  /** A line of POST /orders/bulk: the order row says so (`bulk_line`). */
  bulkLine?: boolean;
  orderReference: string;
  quantity: number;
  delivery: Delivery;
  /** The checkout hold the order names, if any (already matched against the body). */
  holdId: string | null;
  /** The hot-drop reservation a commit fulfils (POST /orders/commit), consumed like a hold. */
  reservation?: ConsumedReservation;
  attestId?: string;
  contractDate: string;
  simulate: SimulateValue | null;
  /** The request's Idempotency-Key claim, which the fulfilment's transaction fences (claim-fence.ts). */
  claim: Claim | null;
}
