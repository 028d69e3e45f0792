import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { lockRows } from '../../db/dialect.js';
import type { AdjustmentType, RefundKeysTable, RefundsTable } from './after-sale.table.js';

export type RefundRow = Selectable<RefundsTable>;
export type RefundKeyRow = Selectable<RefundKeysTable>;

export async function insertRefund(ex: Executor, row: Insertable<RefundsTable>): Promise<void> {
  await ex.insertInto('refunds').values(row).execute();
}

export async function updateRefund(ex: Executor, id: string, patch: Updateable<RefundsTable>): Promise<void> {
  await ex.updateTable('refunds').set(patch).where('id', '=', id).execute();
}

export function findByReference(
  ex: Executor,
  environment: string,
  owner: string,
  type: AdjustmentType,
  reference: string,
) {
  return ex
    .selectFrom('refunds')
    .selectAll()
    .where('environment', '=', environment)
    .where('reference_owner', '=', owner)
    .where('adjustment_type', '=', type)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

/** One adjustment of a seller (in sandbox, of one API key's namespace). */
export function findRefund(ex: Executor, scope: RefundScope, id: string) {
  return ex
    .selectFrom('refunds')
    .selectAll()
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('reference_owner', '=', scope.owner)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** With `lock`, the row stays locked until the transaction ends (the operator's reinstatement). */
export function findRefundById(ex: Executor, id: string, lock = false) {
  const query = ex.selectFrom('refunds').selectAll().where('id', '=', id);
  return (lock ? lockRows(ex, query) : query).executeTakeFirst();
}

export interface RefundScope {
  sellerId: string;
  environment: string;
  owner: string;
}

export interface RefundListFilter extends RefundScope {
  orderReference?: string;
  type?: AdjustmentType;
  from?: number;
  to?: number;
  /** Keyset: adjustments strictly older than (created_at, id). */
  before?: readonly [number, string];
  limit: number;
}

/** Newest first; one row more than the page. */
export function listRefunds(ex: Executor, f: RefundListFilter) {
  let query = ex
    .selectFrom('refunds')
    .selectAll()
    .where('seller_company_id', '=', f.sellerId)
    .where('environment', '=', f.environment)
    .where('reference_owner', '=', f.owner);
  if (f.type) query = query.where('adjustment_type', '=', f.type);
  if (f.from !== undefined) query = query.where('created_at', '>=', f.from);
  if (f.to !== undefined) query = query.where('created_at', '<', f.to);
  if (f.orderReference) {
    const reference = f.orderReference;
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('refund_keys')
        .select('refund_id')
        .where('seller_company_id', '=', f.sellerId)
        .where('environment', '=', f.environment)
        .where('order_reference', '=', reference)
        .where('refund_id', 'is not', null)
        .$narrowType<{ refund_id: string }>(),
    );
  }
  if (f.before) {
    const [at, id] = f.before;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(at, id)));
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit + 1)
    .execute();
}

export async function insertRefundKeys(ex: Executor, rows: Insertable<RefundKeysTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await ex
      .insertInto('refund_keys')
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

/** Keys already taken back from the orders they are sold under now. */
export function adjustedKeys(ex: Executor, keyIds: readonly string[]) {
  if (keyIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('refund_keys')
    .select(['order_id', 'key_id', 'cause', 'seller_company_id', 'environment', 'outcome'])
    .where('key_id', 'in', keyIds)
    .execute();
}

/** How many keys of each order were taken back (after this adjustment's rows). */
export function adjustedCounts(ex: Executor, orderIds: readonly string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('refund_keys')
    .select((eb) => ['order_id', eb.fn.countAll<string | number>().as('n')])
    .where('order_id', 'in', orderIds)
    .groupBy('order_id')
    .execute();
}

export function keysOfRefund(ex: Executor, refundId: string) {
  return ex.selectFrom('refund_keys').selectAll().where('refund_id', '=', refundId).execute();
}

export async function markKeysReinstated(ex: Executor, refundId: string, at: number): Promise<void> {
  await ex.updateTable('refund_keys').set({ reinstated_at: at }).where('refund_id', '=', refundId).execute();
}

/** Quarantined keys of a publisher, newest first, keyset after (created_at, key_id). */
export function quarantinedKeys(
  ex: Executor,
  publisherId: string,
  limit: number,
  before?: readonly [number, string],
) {
  let query = ex
    .selectFrom('refund_keys')
    .selectAll()
    .where('publisher_company_id', '=', publisherId)
    .where('outcome', '=', 'quarantined')
    .where('reinstated_at', 'is', null);
  if (before) {
    const [at, id] = before;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'key_id'), '<', eb.tuple(at, id)));
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('key_id', 'desc')
    .limit(limit + 1)
    .execute();
}
