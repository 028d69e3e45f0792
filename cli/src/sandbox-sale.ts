import { randomUUID } from 'node:crypto';

export const ALWAYS_SKU = 'SANDBOX-ALWAYS-001';
export const HOT_DROP_SKU = 'SANDBOX-HOTDROP-001';

/** A fresh order reference the CLI's sandbox calls use: `cli-<what>-<8 hex>`. */
export const freshReference = (what: string) => `cli-${what}-${randomUUID().slice(0, 8)}`;

/** One key sold to the US at the quoted price: the body of a reservation. */
export const usLine = (skuCode: string, orderReference: string, cents: number) => ({
  skuCode,
  quantity: 1,
  countryCode: 'US',
  orderReference,
  expectedUnitPriceCents: cents,
});

/** The same line as an order, with the web sale it declares (as production requires). */
export const usWebOrder = (skuCode: string, orderReference: string, cents: number) => ({
  ...usLine(skuCode, orderReference, cents),
  integrationOrderContext: {
    salesCountryCode: 'US',
    currencyCode: 'USD',
    salesTaxRatePercent: 0,
    salesPriceGrossMinor: cents,
    salesChannel: 'web',
  },
});
