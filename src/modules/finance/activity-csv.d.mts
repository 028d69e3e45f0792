import type { ActivityRow } from './activity.repo.js';

export declare const ACTIVITY_CSV_COLUMNS: readonly [
  'entryId',
  'createdAt',
  'kind',
  'sign',
  'orderReference',
  'skuCode',
  'quantity',
  'counterpartyCompanyId',
  'counterpartyName',
  'promoId',
  'declaredCountry',
  'detectedCountry',
  'countryMismatch',
  'evidenceRank',
  'currencyCode',
  'saleMinor',
  'signedSaleMinor',
  'wholesaleMinor',
  'signedWholesaleMinor',
  'wholesaleCurrencyCode',
];
export declare const ACTIVITY_CSV_HEADER: string;
export declare function signed(sign: number, amount: number | null): number | null;
export declare function formatRows(rows: readonly ActivityRow[]): string;
