import type { Executor } from '../../db/database.js';
import { coverage, keptSaleTotals } from './kept-totals.repo.js';
import { type SellerRows, saleTotals } from './sales-read.repo.js';

/** The figures of one sale currency over a span: the same figures whichever endpoint shows them. */
export interface CurrencyTotals {
  currencyCode: string;
  /** Original `sale` entries only. */
  grossSalesCents: number;
  /** What `sale_reversal` entries took back (refunds, chargebacks, returns), as a positive amount. */
  refundedCents: number;
  /** What reinstatements (a `sale` row naming the reversal it undoes) gave back. */
  reinstatedCents: number;
  /** gross - refunded + reinstated: the plain sum of every line's signed amount. */
  netSalesCents: number;
  saleCount: number;
  reversalCount: number;
  reinstatementCount: number;
  keysSold: number;
  keysReversed: number;
  /** Wholesale owed to publishers for these lines, per wholesale currency (reversals negate it). */
  wholesaleOwed: { currencyCode: string; amountCents: number }[];
}

/** A currency with nothing in it yet. */
export const emptyTotals = (currencyCode: string): CurrencyTotals => ({
  currencyCode,
  grossSalesCents: 0,
  refundedCents: 0,
  reinstatedCents: 0,
  netSalesCents: 0,
  saleCount: 0,
  reversalCount: 0,
  reinstatementCount: 0,
  keysSold: 0,
  keysReversed: 0,
  wholesaleOwed: [],
});

/**
 * The one aggregation behind statements, summary and invoices: the sale lines created in
 * [from, to) (UTC epoch ms), per sale currency. A line counts where its own `created_at` falls,
 * so a refund dated next month lowers next month, and the same span always gives the same
 * figures (lines are insert-only). Whole months, days, hours, minutes and seconds are read from
 * the totals kept beside the lines (kept-totals.repo.ts); only the parts shorter than a second at
 * either end sum lines, so the cost grows neither with the seller's history nor with its volume.
 */
export async function financeTotals(
  ex: Executor,
  scope: SellerRows,
  from: number,
  to: number,
): Promise<CurrencyTotals[]> {
  const { buckets, edges } = coverage(from, to);
  const parts = await Promise.all([
    ...buckets.map((range) => keptSaleTotals(ex, scope, range)),
    ...edges.map(([start, end]) => saleTotals(ex, scope, start, end)),
  ]);
  const byCurrency = new Map<string, CurrencyTotals & { owed: Map<string, number> }>();
  for (const row of parts.flat()) {
    const t = byCurrency.get(row.currency_code) ?? { ...emptyTotals(row.currency_code), owed: new Map() };
    byCurrency.set(row.currency_code, t);
    t.grossSalesCents += Number(row.gross);
    t.refundedCents -= Number(row.reversed);
    t.reinstatedCents += Number(row.reinstated);
    t.saleCount += Number(row.sale_count);
    t.reversalCount += Number(row.reversal_count);
    t.reinstatementCount += Number(row.reinstatement_count);
    t.keysSold += Number(row.keys_sold);
    t.keysReversed += Number(row.keys_reversed);
    if (row.wholesale_currency_code) {
      const owed = t.owed.get(row.wholesale_currency_code) ?? 0;
      t.owed.set(row.wholesale_currency_code, owed + Number(row.wholesale));
    }
  }
  return [...byCurrency.values()]
    .sort((a, b) => (a.currencyCode < b.currencyCode ? -1 : a.currencyCode > b.currencyCode ? 1 : 0))
    .map(({ owed, ...t }) => ({
      ...t,
      wholesaleOwed: [...owed.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([currencyCode, amountCents]) => ({ currencyCode, amountCents })),
      netSalesCents: t.grossSalesCents - t.refundedCents + t.reinstatedCents,
    }));
}

/** The statement buckets per sale currency (docs/after-sale.md, "Statement buckets"). */
export type StatementBuckets = Pick<
  CurrencyTotals,
  'currencyCode' | 'grossSalesCents' | 'refundedCents' | 'reinstatedCents' | 'netSalesCents'
>;

/** A seller's statement buckets over all time, from the same aggregation as every statement. */
export async function statementBuckets(ex: Executor, scope: SellerRows): Promise<StatementBuckets[]> {
  const totals = await financeTotals(ex, scope, 0, Number.MAX_SAFE_INTEGER);
  return totals.map(({ currencyCode, grossSalesCents, refundedCents, reinstatedCents, netSalesCents }) => ({
    currencyCode,
    grossSalesCents,
    refundedCents,
    reinstatedCents,
    netSalesCents,
  }));
}

/** `YYYY-MM` of a UTC calendar month and its [start, end) in epoch ms. */
export interface Period {
  period: string;
  start: number;
  end: number;
}

export function periodOf(year: number, month: number): Period {
  const start = Date.UTC(year, month - 1, 1);
  const d = new Date(start);
  return {
    period: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`,
    start,
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

export function parsePeriod(value: string): Period {
  const [year, month] = value.split('-').map(Number);
  return periodOf(year!, month!);
}

export const periodContaining = (ms: number): Period => {
  const d = new Date(ms);
  return periodOf(d.getUTCFullYear(), d.getUTCMonth() + 1);
};
