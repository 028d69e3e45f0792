// The activity CSV's records, formatted straight from stored activity rows (the same fields as
// the JSON view, without building its objects: a million rows would make a lot of short-lived
// garbage otherwise). Plain JavaScript so that, on SQLite, the reader thread formats each page
// where it reads it, and the event loop only passes the bytes on (heavy-read.ts).
import { csvRecord } from '../../lib/csv.mjs';

export const ACTIVITY_CSV_COLUMNS = Object.freeze([
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
]);

export const ACTIVITY_CSV_HEADER = csvRecord(ACTIVITY_CSV_COLUMNS);

/**
 * The amount in the entry's direction. Rows written before reversal amounts were stored negated
 * hold magnitudes; this reads both the same.
 */
export const signed = (sign, amount) => (amount === null ? null : sign * Math.abs(amount));

function activityRecord(row) {
  const buyer = JSON.parse(row.buyer_country);
  const e = JSON.parse(row.economics);
  const sign = Number(row.sign);
  return csvRecord([
    row.id,
    new Date(Number(row.created_at)).toISOString(),
    row.kind,
    sign,
    row.order_reference,
    row.sku_code,
    Number(row.quantity),
    row.counterparty_company_id,
    row.counterparty_name,
    row.promo_id,
    buyer.declaredCountry,
    buyer.detectedCountry,
    buyer.countryMismatch,
    buyer.evidenceRank,
    e.currencyCode,
    e.saleMinor,
    signed(sign, e.saleMinor),
    e.wholesaleMinor,
    signed(sign, e.wholesaleMinor),
    e.wholesaleCurrencyCode,
  ]);
}

/** One CSV record per row, in order. */
export function formatRows(rows) {
  let text = '';
  for (const row of rows) text += activityRecord(row);
  return text;
}
