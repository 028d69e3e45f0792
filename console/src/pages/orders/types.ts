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

export interface Refund {
  refundId: string;
  adjustmentType: string;
  source: string;
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
  keys: { id: string; state: string }[];
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
