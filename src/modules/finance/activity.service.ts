import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { type CursorKey, page } from '../../http/pagination.js';
import { isoOf } from '../../lib/clock.js';
import { csvRecord } from '../../lib/csv.js';
import { type ActivityFilter, type ActivityRow, listActivity } from './activity.repo.js';

interface Economics {
  currencyCode: string | null;
  saleMinor: number | null;
  wholesaleMinor: number | null;
  wholesaleCurrencyCode: string | null;
}

/**
 * `signedSaleMinor` / `signedWholesaleMinor`: the amount in the entry's direction. Rows written
 * before reversal amounts were stored negated hold magnitudes; this reads both the same.
 */
const signed = (sign: number, amount: number | null) => (amount === null ? null : sign * Math.abs(amount));

/** A settlement activity entry (SPEC 2.8): signed kind, counterparty, promo, buyer-country evidence, economics. */
export function activityView(row: ActivityRow) {
  const economics = JSON.parse(row.economics) as Economics;
  const sign = Number(row.sign);
  return {
    entryId: row.id,
    kind: row.kind,
    sign,
    orderId: row.order_id,
    orderReference: row.order_reference,
    skuCode: row.sku_code,
    quantity: Number(row.quantity),
    counterparty: { companyId: row.counterparty_company_id, name: row.counterparty_name },
    promoId: row.promo_id,
    buyerCountry: JSON.parse(row.buyer_country) as {
      declaredCountry: string | null;
      detectedCountry: string | null;
      countryMismatch: boolean;
      evidenceRank: number;
    },
    economics: {
      ...economics,
      signedSaleMinor: signed(sign, economics.saleMinor),
      signedWholesaleMinor: signed(sign, economics.wholesaleMinor),
    },
    createdAt: isoOf(Number(row.created_at)),
  };
}

export type ActivityEntry = ReturnType<typeof activityView>;

export async function activityPage(
  ctx: AppContext,
  filter: ActivityFilter,
  limit: number,
  urlFor: (cursor: string) => string,
) {
  const rows = await listActivity(ctx.db, filter, limit + 1);
  const paged = page(rows, limit, (r): CursorKey => [Number(r.created_at), r.id], urlFor);
  return { data: paged.data.map(activityView), meta: paged.meta };
}

export const ACTIVITY_CSV_COLUMNS = [
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
] as const;

/**
 * One CSV record straight from the stored row: the same fields as `activityView`, without
 * building the view's objects (a million rows make a lot of short-lived garbage otherwise).
 */
function csvLine(row: ActivityRow): string {
  const buyer = JSON.parse(row.buyer_country) as ActivityEntry['buyerCountry'];
  const e = JSON.parse(row.economics) as Economics;
  const sign = Number(row.sign);
  return csvRecord([
    row.id,
    isoOf(Number(row.created_at)),
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

/** Rows read per query while streaming: memory holds one batch, whatever the total. */
const CSV_BATCH = 1000;

/**
 * Every entry matching the filter as RFC 4180 CSV (header row first, newest entry first), read
 * in keyset batches and written as each batch is formatted, so memory stays flat for a million
 * rows. The stream pulls the next batch only when the consumer has drained the last one.
 */
export function activityCsv(ctx: AppContext, filter: ActivityFilter, onRow?: () => void): Readable {
  async function* chunks() {
    yield Buffer.from(csvRecord(ACTIVITY_CSV_COLUMNS));
    let before = filter.before;
    for (;;) {
      const rows = await listActivity(ctx.db, { ...filter, before }, CSV_BATCH);
      if (rows.length === 0) return;
      let chunk = '';
      for (const row of rows) {
        chunk += csvLine(row);
        onRow?.();
      }
      // A Buffer leaves the heap at once: the string pieces of the batch die young.
      yield Buffer.from(chunk);
      if (rows.length < CSV_BATCH) return;
      const last = rows.at(-1)!;
      before = [Number(last.created_at), last.id];
    }
  }
  // Bytes, not objects: the stream buffers at most 64 KiB ahead of the consumer.
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}
