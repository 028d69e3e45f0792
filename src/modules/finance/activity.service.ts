import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { heavyFormatted, type RowFormatter } from '../../db/heavy-read.js';
import { heavyReader } from '../../db/replica.js';
import { type CursorKey, page } from '../../http/pagination.js';
import { isoOf } from '../../lib/clock.js';
import { type ActivityFilter, type ActivityRow, activityQuery, listActivity } from './activity.repo.js';
import { ACTIVITY_CSV_HEADER, formatRows, signed } from './activity-csv.mjs';

interface Economics {
  currencyCode: string | null;
  saleMinor: number | null;
  wholesaleMinor: number | null;
  wholesaleCurrencyCode: string | null;
}

/** A settlement activity entry: signed kind, counterparty, promo, buyer-country evidence, economics. */
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
  const rows = await listActivity(await heavyReader(ctx, filter.sellerId), filter, limit + 1);
  const paged = page(rows, limit, (r): CursorKey => [Number(r.created_at), r.id], urlFor);
  return { data: paged.data.map(activityView), meta: paged.meta };
}

/** Rows read per query while streaming: memory holds one batch, whatever the total. */
const CSV_BATCH = 1000;

/** The CSV formatter, for this thread and the reader threads (SQLite, PostgreSQL). */
export const ACTIVITY_CSV: RowFormatter<ActivityRow> = {
  url: new URL('./activity-csv.mjs', import.meta.url).href,
  formatRows,
};

/**
 * Every entry matching the filter as RFC 4180 CSV (header row first, newest entry first), read
 * in keyset batches and written as each batch is formatted, so memory stays flat for a million
 * rows. The stream pulls the next batch only when the consumer has drained the last one. Each
 * batch is read and formatted on a reader thread (SQLite's, or the PostgreSQL reader of the
 * replica or primary the request's reads go to): a million-row export leaves the event loop
 * only its bytes to send. A stream destroyed early (the client went away) stops the batch under
 * way. `onRows` hears how many rows each batch held.
 */
export function activityCsv(
  ctx: AppContext,
  filter: ActivityFilter,
  onRows?: (count: number) => void,
): Readable {
  const stopped = new AbortController();
  async function* chunks() {
    yield Buffer.from(ACTIVITY_CSV_HEADER);
    let before = filter.before;
    const reads = await heavyReader(ctx, filter.sellerId);
    for (;;) {
      const batch = await heavyFormatted(
        reads,
        activityQuery(reads, { ...filter, before }, CSV_BATCH),
        ACTIVITY_CSV,
        stopped.signal,
      );
      if (batch.count === 0) return;
      onRows?.(batch.count);
      yield batch.bytes;
      if (batch.count < CSV_BATCH || !batch.last) return;
      before = [Number(batch.last.created_at), batch.last.id];
    }
  }
  const batches = chunks();
  // Bytes, not objects: the stream buffers at most 64 KiB ahead of the consumer. Not
  // Readable.from: its destroy waits for the batch under way, which the abort is to stop.
  return new Readable({
    highWaterMark: 64 * 1024,
    read() {
      batches.next().then(
        ({ done, value }) => this.push(done ? null : value),
        (err: unknown) => this.destroy(err as Error),
      );
    },
    destroy(err, callback) {
      stopped.abort();
      batches.return(undefined).catch(() => {});
      callback(err);
    },
  });
}
