export interface OrderAggregate {
  id: string;
  readableId: string;
  orderReference: string;
  kind: string;
  delivery: string;
  skuCode: string;
  quantity: number;
  pulled: number;
  keyIds: string[];
  unitPriceCents: number | null;
  currencyCode: string | null;
  countryCode: string | null;
  deferredReveal: boolean;
  revealedAt: string | null;
  checkoutHoldId: string | null;
  createdAt: string;
}

/** Keys taken back or swapped after the sale, counted per key (a won chargeback no longer counts). */
export interface AfterSale {
  refunded: number;
  chargedBack: number;
  returned: number;
  replaced: number;
}

/** A row of the Orders list: the API's aggregate and what happened to its keys since. */
export interface OrderRow extends OrderAggregate {
  afterSale: AfterSale;
}

/** The answer of a search by key code: the order only, never the code. */
export interface KeyCodeMatch {
  orderId: string;
  readableId: string;
  orderReference: string;
  keyId: string;
}

export interface Refund {
  refundId: string;
  adjustmentType: 'refund' | 'chargeback';
  source: 'refund' | 'chargeback' | 'return';
  refundReference?: string | null;
  chargebackReference?: string | null;
  orderReferences: string[];
  keyIds: string[];
  amounts: { currencyCode: string; grossCents: number; wholesaleCents: number }[];
  reason: string | null;
  reinstatedAt: string | null;
  createdAt: string;
}

export interface SaleLine {
  transactionId: string;
  entryType: string;
  orderReference: string;
  skuCode: string;
  quantity: number;
  currencyCode: string;
  salePriceCents: number;
  wholesaleCents: number | null;
  wholesaleCurrencyCode: string | null;
  createdAt: string;
}

export interface OrderDetail {
  order: OrderAggregate;
  /** Written as a line of POST /orders/bulk. */
  bulkLine: boolean;
  keys: {
    id: string;
    state: string;
    takenBackBy: 'refund' | 'chargeback' | 'return' | null;
    replacedBy: string | null;
  }[];
  afterSale: AfterSale;
  hold: { id: string; status: string; quantity: number; expiresAt: string } | null;
  reservation: { id: string; status: string; quantity: number; extended: boolean; expiresAt: string } | null;
  refunds: Refund[];
  saleLines: SaleLine[] | null;
  events: {
    eventId: string;
    eventType: string;
    createdAt: string;
    deliveries: {
      endpointId: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
    }[];
  }[];
}
