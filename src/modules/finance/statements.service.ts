import type { AppContext } from '../../context.js';
import { heavyReader } from '../../db/replica.js';
import { fail } from '../../http/errors.js';
import { isoOf } from '../../lib/clock.js';
import { invoicesOfPeriods } from './invoices.repo.js';
import type { SellerRows } from './sales-read.repo.js';
import {
  type CurrencyTotals,
  financeTotals,
  type Period,
  parsePeriod,
  periodContaining,
  periodOf,
} from './totals.js';

/** The longest span one statements request covers. */
export const MAX_STATEMENT_MONTHS = 24;

export interface StatementLine extends CurrencyTotals {
  period: string;
  periodStart: string;
  periodEnd: string;
}

/** The statement lines of one month: one per sale currency with any line in it. */
export async function statementOf(ctx: AppContext, scope: SellerRows, p: Period): Promise<StatementLine[]> {
  const totals = await financeTotals(await heavyReader(ctx, scope.sellerId), scope, p.start, p.end);
  return totals.map((t) => ({
    period: p.period,
    periodStart: isoOf(p.start),
    periodEnd: isoOf(p.end),
    ...t,
  }));
}

function monthsBetween(from: Period, to: Period): Period[] {
  const months: Period[] = [];
  for (let p = from; p.start <= to.start; p = periodContaining(p.end)) months.push(p);
  return months;
}

/**
 * GET /finance/statements: per UTC calendar month (oldest first) and sale currency. `to`
 * defaults to the current month, `from` to eleven months before `to`. A month the operator
 * closed names its invoice; its figures equal the invoice's (lines never change once written).
 */
export async function statements(ctx: AppContext, scope: SellerRows, q: { from?: string; to?: string }) {
  const to = q.to ? parsePeriod(q.to) : periodContaining(ctx.clock.now());
  const toDate = new Date(to.start);
  const from = q.from ? parsePeriod(q.from) : periodOf(toDate.getUTCFullYear(), toDate.getUTCMonth() - 10);
  const months = from.start <= to.start ? monthsBetween(from, to) : [];
  if (months.length === 0 || months.length > MAX_STATEMENT_MONTHS) {
    throw fail(
      'VALIDATION_FAILED',
      `from must not be after to, and the span at most ${MAX_STATEMENT_MONTHS} months.`,
      {
        issues: [{ field: 'from', in: 'query', message: 'span of 1 to 24 months', keyword: 'range' }],
      },
    );
  }
  const invoices = await invoicesOfPeriods(
    await heavyReader(ctx, scope.sellerId),
    scope,
    months.map((m) => m.period),
  );
  const lines: (StatementLine & { invoiceId: string | null })[] = [];
  for (const month of months) {
    for (const line of await statementOf(ctx, scope, month)) {
      lines.push({ ...line, invoiceId: invoices.get(month.period) ?? null });
    }
  }
  return { data: lines, meta: { from: from.period, to: to.period, count: lines.length } };
}

/** GET /finance/summary: totals of [from, to) per currency; defaults to the current month so far. */
export async function summary(ctx: AppContext, scope: SellerRows, q: { from?: number; to?: number }) {
  const now = ctx.clock.now();
  const from = q.from ?? periodContaining(now).start;
  const to = q.to ?? now;
  if (to < from) {
    throw fail('VALIDATION_FAILED', 'to must not be before from.', {
      issues: [{ field: 'to', in: 'query', message: 'must not be before from', keyword: 'range' }],
    });
  }
  return {
    data: {
      from: isoOf(from),
      to: isoOf(to),
      currencies: await financeTotals(await heavyReader(ctx, scope.sellerId), scope, from, to),
    },
  };
}
