import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { FinanceInvoicesTable } from './finance.table.js';
import type { SellerRows } from './sales-read.repo.js';

export async function insertInvoice(ex: Executor, row: Insertable<FinanceInvoicesTable>): Promise<void> {
  await ex.insertInto('finance_invoices').values(row).execute();
}

export function findInvoiceOfPeriod(ex: Executor, scope: SellerRows, period: string) {
  return ex
    .selectFrom('finance_invoices')
    .selectAll()
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('period', '=', period)
    .executeTakeFirst();
}

export function findInvoice(ex: Executor, scope: SellerRows, id: string) {
  return ex
    .selectFrom('finance_invoices')
    .selectAll()
    .where('id', '=', id)
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

/** Invoices of a seller, newest period first. */
export function listInvoices(ex: Executor, scope: SellerRows) {
  return ex
    .selectFrom('finance_invoices')
    .selectAll()
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .orderBy('period', 'desc')
    .execute();
}

/** period -> invoice id, for the periods given that are invoiced. */
export async function invoicesOfPeriods(ex: Executor, scope: SellerRows, periods: string[]) {
  const rows = await ex
    .selectFrom('finance_invoices')
    .select(['id', 'period'])
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('period', 'in', periods)
    .execute();
  return new Map(rows.map((r) => [r.period, r.id]));
}
