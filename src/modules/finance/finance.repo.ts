import type { Insertable } from 'kysely';
import { insertOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import type { ActivityEntriesTable, SaleLinesTable } from './finance.table.js';

const insertSaleLines = insertOnce('sale_lines');
const insertActivities = insertOnce('activity_entries');

/** A sale line and its activity entry: one statement on PostgreSQL (one round trip), two on SQLite. */
export async function insertSaleWithActivity(
  ex: Executor,
  row: Insertable<SaleLinesTable>,
  activity: Insertable<ActivityEntriesTable>,
): Promise<void> {
  if (isPostgres(ex)) {
    await ex
      .with('sale', (db) => db.insertInto('sale_lines').values(row))
      .insertInto('activity_entries')
      .values(activity)
      .execute();
    return;
  }
  await insertSaleLine(ex, row);
  await insertActivity(ex, activity);
}

export async function insertSaleLine(ex: Executor, row: Insertable<SaleLinesTable>): Promise<void> {
  await insertSaleLines(ex, [row]);
}

export async function insertActivity(ex: Executor, row: Insertable<ActivityEntriesTable>): Promise<void> {
  await insertActivities(ex, [row]);
}

export function saleLinesOfOrder(ex: Executor, orderId: string) {
  return ex.selectFrom('sale_lines').selectAll().where('order_id', '=', orderId).execute();
}

export function activityOfOrder(ex: Executor, orderId: string) {
  return ex.selectFrom('activity_entries').selectAll().where('order_id', '=', orderId).execute();
}

/** The original sale rows of orders (not reinstatements). */
export function originalSalesOf(ex: Executor, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('sale_lines')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .where('entry_type', '=', 'sale')
    .where('reverses_transaction_id', 'is', null)
    .execute();
}

export function saleLinesByIds(ex: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex.selectFrom('sale_lines').selectAll().where('id', 'in', ids).orderBy('id').execute();
}
