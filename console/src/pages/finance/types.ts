export interface StatementLine {
  period: string;
  currencyCode: string;
  grossSalesCents: number;
  refundedCents: number;
  reinstatedCents: number;
  netSalesCents: number;
  saleCount: number;
  reversalCount: number;
  keysSold: number;
  keysReversed: number;
  wholesaleOwed: { currencyCode: string; amountCents: number }[];
  invoiceId: string | null;
}

export interface ActivityEntry {
  entryId: string;
  kind: string;
  sign: number;
  orderReference: string;
  skuCode: string;
  quantity: number;
  counterparty: { companyId: string; name: string | null };
  promoId: string | null;
  economics: { currencyCode: string | null; signedSaleMinor: number | null };
  createdAt: string;
}

export interface Invoice {
  invoiceId: string;
  period: string;
  createdAt: string;
  lines: StatementLine[];
}
