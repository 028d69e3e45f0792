import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { isoOf } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { emit } from '../events/index.js';
import * as repo from './invoices.repo.js';
import type { SellerRows } from './sales-read.repo.js';
import { type StatementLine, statementOf } from './statements.service.js';
import { parsePeriod } from './totals.js';

type InvoiceRow = NonNullable<Awaited<ReturnType<typeof repo.findInvoice>>>;

const invoiceView = (row: InvoiceRow) => ({
  invoiceId: row.id,
  period: row.period,
  periodStart: isoOf(row.period_start),
  periodEnd: isoOf(row.period_end),
  createdAt: isoOf(row.created_at),
  lines: JSON.parse(row.document) as StatementLine[],
});

/**
 * The operator closes a seller's month: its statement is frozen into an invoice document and
 * `invoice.created` is queued in the same transaction. Only a month that has ended can close;
 * closing a closed month returns its invoice unchanged (`created: false`) and emits nothing.
 */
export async function closeMonth(ctx: AppContext, scope: SellerRows, periodText: string) {
  const period = parsePeriod(periodText);
  const now = ctx.clock.now();
  if (period.end > now) {
    throw fail(
      'VALIDATION_FAILED',
      `${period.period} has not ended yet; it can close from ${isoOf(period.end)}.`,
      {
        issues: [{ field: 'period', in: 'body', message: 'month not ended', keyword: 'range' }],
      },
    );
  }
  const existing = await repo.findInvoiceOfPeriod(ctx.db, scope, period.period);
  if (existing) return { created: false, invoice: invoiceView(existing) };
  const lines = await statementOf(ctx, scope, period);
  const row: InvoiceRow = {
    id: uuidv7(now),
    seller_company_id: scope.sellerId,
    environment: scope.environment,
    period: period.period,
    period_start: period.start,
    period_end: period.end,
    document: JSON.stringify(lines),
    created_at: now,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertInvoice(trx, row);
      await emit(
        ctx,
        trx,
        [{ companyId: scope.sellerId, environment: scope.environment }],
        'invoice.created',
        {
          invoiceId: row.id,
          periodStart: isoOf(row.period_start),
          periodEnd: isoOf(row.period_end),
        },
      );
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return closeMonth(ctx, scope, periodText);
  }
  return { created: true, invoice: invoiceView(row) };
}

export async function getInvoice(ctx: AppContext, scope: SellerRows, id: string) {
  const row = await repo.findInvoice(ctx.db, scope, id);
  if (!row) throw fail('NOT_FOUND', `No invoice ${id}.`);
  return invoiceView(row);
}

export async function listInvoices(ctx: AppContext, scope: SellerRows) {
  return (await repo.listInvoices(ctx.db, scope)).map(invoiceView);
}
