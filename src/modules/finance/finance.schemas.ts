import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../http/schemas.js';

const Amounts = {
  currencyCode: Type.String(),
  grossSalesCents: Type.Integer({ description: 'original sale entries only' }),
  refundedCents: Type.Integer({ description: 'taken back by sale_reversal entries, as a positive amount' }),
  reinstatedCents: Type.Integer({ description: 'given back by reinstatements' }),
  netSalesCents: Type.Integer({ description: 'gross - refunded + reinstated' }),
  saleCount: Type.Integer(),
  reversalCount: Type.Integer(),
  reinstatementCount: Type.Integer(),
  keysSold: Type.Integer(),
  keysReversed: Type.Integer(),
  wholesaleOwed: Type.Array(Type.Object({ currencyCode: Type.String(), amountCents: Type.Integer() })),
};

export const CurrencyTotalsSchema = Type.Object(Amounts);

export const StatementLineSchema = Type.Object({
  period: Type.String({ description: 'YYYY-MM, UTC calendar month' }),
  periodStart: DateTime,
  periodEnd: DateTime,
  ...Amounts,
});

export const InvoiceSchema = Type.Object({
  invoiceId: Type.String(),
  period: Type.String(),
  periodStart: DateTime,
  periodEnd: DateTime,
  createdAt: DateTime,
  lines: Type.Array(StatementLineSchema),
});

export const SaleLineSchema = Type.Object({
  transactionId: Type.String(),
  entryType: Type.String({ description: 'sale or sale_reversal' }),
  reversesTransactionId: Nullable(Type.String()),
  orderId: Type.String(),
  orderReference: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  currencyCode: Type.String(),
  unitPriceCents: Type.Integer(),
  salePriceCents: Type.Integer(),
  initialSalePriceCents: Type.Integer(),
  wholesaleCents: Nullable(Type.Integer()),
  wholesaleCurrencyCode: Nullable(Type.String()),
  counterpartyCompanyId: Type.String(),
  promo: Nullable(Type.Object({ sourceType: Type.String(), sourceId: Type.String() })),
  taxMetadata: Type.Record(Type.String(), Type.Unknown()),
  customerRegionCode: Type.String(),
  detectedCountryCode: Nullable(Type.String()),
  countryMismatch: Type.Boolean(),
  warnings: Type.Array(Type.String()),
  integrationOrderContext: Type.Object({ consumerIpHash: Nullable(Type.String()) }),
  consumerIpRedacted: Type.Boolean(),
  settlement: Nullable(Type.Record(Type.String(), Type.Unknown())),
  createdAt: DateTime,
});

export const ActivityEntrySchema = Type.Object({
  entryId: Type.String(),
  kind: Type.String({
    description:
      'sale (+1), refund and chargeback (-1), pull (+1), reveal (0), replacement (0: a reported key swapped for a new one, no charge)',
  }),
  sign: Type.Integer(),
  orderId: Type.String(),
  orderReference: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  counterparty: Type.Object({ companyId: Type.String(), name: Nullable(Type.String()) }),
  promoId: Nullable(Type.String()),
  buyerCountry: Type.Record(Type.String(), Type.Unknown()),
  economics: Type.Object({
    currencyCode: Nullable(Type.String()),
    saleMinor: Nullable(Type.Integer()),
    wholesaleMinor: Nullable(Type.Integer()),
    wholesaleCurrencyCode: Nullable(Type.String()),
    signedSaleMinor: Nullable(Type.Integer()),
    signedWholesaleMinor: Nullable(Type.Integer()),
  }),
  createdAt: DateTime,
});

export const TransactionSchema = Type.Object({
  transactionId: Type.String(),
  kind: Type.String(),
  orderId: Type.String(),
  orderReference: Type.String(),
  skuCode: Type.String(),
  keys: Type.Integer({ description: 'keys moved: positive to the seller, negative back' }),
  counterpartyCompanyId: Type.String(),
  wholesaleMinor: Nullable(Type.Integer()),
  wholesaleCurrencyCode: Nullable(Type.String()),
  createdAt: DateTime,
});

export const Month = Type.String({
  pattern: '^(19|2[0-9])[0-9]{2}-(0[1-9]|1[0-2])$',
  description: 'YYYY-MM (UTC calendar month)',
});
