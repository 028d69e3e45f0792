import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { heavyRead } from '../../db/heavy-read.js';
import type { SaleTotalsTable } from './finance.table.js';
import type { SellerRows } from './sales-read.repo.js';

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The latest instant a JavaScript Date holds: no line is written after it. */
const LAST_MS = 8.64e15;

type Span = SaleTotalsTable['span'];

/** The buckets of one span whose start lies in [start, end). */
export interface BucketRange {
  span: Span;
  start: number;
  end: number;
}

const monthStartOf = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const nextMonth = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

const fixed = (size: number) => ({
  up: (ms: number) => Math.ceil(ms / size) * size,
  down: (ms: number) => Math.floor(ms / size) * size,
});

/** The first bucket boundary at or after `ms`, and the last at or before it, per span. */
const BOUNDARIES: Record<Span, { up: (ms: number) => number; down: (ms: number) => number }> = {
  month: {
    up: (ms) => (monthStartOf(ms) === ms ? ms : nextMonth(ms)),
    down: monthStartOf,
  },
  day: fixed(DAY_MS),
  hour: fixed(HOUR_MS),
  minute: fixed(MINUTE_MS),
  second: fixed(SECOND_MS),
};
const COARSE_TO_FINE: Span[] = ['month', 'day', 'hour', 'minute', 'second'];

/**
 * [from, to) as whole buckets, coarsest first, and the parts shorter than a second at either end
 * (summed from the lines themselves). A month reads one bucket; a month so far reads at most
 * 30 days, 23 hours, 59 minutes, 59 seconds and the lines of the current second, so the cost
 * of any window is bounded whatever the seller's volume.
 */
export function coverage(from: number, to: number): { buckets: BucketRange[]; edges: [number, number][] } {
  const buckets: BucketRange[] = [];
  const edges: [number, number][] = [];
  const cover = (start: number, end: number, level: number) => {
    if (start >= end) return;
    const span = COARSE_TO_FINE[level];
    if (!span) {
      edges.push([start, end]);
      return;
    }
    const first = BOUNDARIES[span].up(start);
    const last = BOUNDARIES[span].down(Math.min(end, LAST_MS));
    if (first >= last) {
      cover(start, end, level + 1);
      return;
    }
    buckets.push({ span, start: first, end: last });
    cover(start, first, level + 1);
    cover(last, end, level + 1);
  };
  cover(from, to, 0);
  return { buckets, edges };
}

const summed = (column: string) => sql<number>`cast(sum(${sql.ref(column)}) as bigint)`;

/**
 * The kept totals of the whole buckets of `range`, summed over buckets and shards, per sale and
 * wholesale currency; the same shape as saleTotals.
 */
export function keptSaleTotals(ex: Executor, scope: SellerRows, range: BucketRange) {
  return heavyRead(
    ex,
    ex
      .selectFrom('sale_totals')
      .select([
        'currency_code',
        sql<string | null>`nullif(wholesale_currency_code, '')`.as('wholesale_currency_code'),
        summed('gross').as('gross'),
        summed('reversed').as('reversed'),
        summed('reinstated').as('reinstated'),
        summed('sale_count').as('sale_count'),
        summed('reversal_count').as('reversal_count'),
        summed('reinstatement_count').as('reinstatement_count'),
        summed('keys_sold').as('keys_sold'),
        summed('keys_reversed').as('keys_reversed'),
        summed('wholesale').as('wholesale'),
      ])
      .where('seller_company_id', '=', scope.sellerId)
      .where('environment', '=', scope.environment)
      .where('span', '=', range.span)
      .where('bucket_start', '>=', range.start)
      .where('bucket_start', '<', range.end)
      .groupBy(['currency_code', 'wholesale_currency_code']),
  );
}

/** Keys moved to the seller (sale and pull entries) per UTC day index in [fromDay, toDay]. */
export async function keysPerDay(ex: Executor, scope: SellerRows, fromDay: number, toDay: number) {
  const rows = await ex
    .selectFrom('activity_day_totals')
    .select(['day', summed('keys').as('keys')])
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [Number(r.day), Number(r.keys)]));
}
