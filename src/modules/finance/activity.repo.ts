import type { Executor } from '../../db/database.js';
import { heavyRead } from '../../db/heavy-read.js';
import type { ActivityKind } from './finance.table.js';
import type { SellerRows } from './sales-read.repo.js';

export interface ActivityFilter extends SellerRows {
  from?: number;
  to?: number;
  kinds?: readonly ActivityKind[];
  promoId?: string;
  counterparty?: string;
  orderReference?: string;
  /** Keyset: entries strictly older than (created_at, id). */
  before?: readonly [number, string];
}

/** The select of activity entries with the counterparty's name, newest first; `limit` rows at most. */
export function activityQuery(ex: Executor, f: ActivityFilter, limit: number) {
  let query = ex
    .selectFrom('activity_entries as a')
    .leftJoin('companies as c', 'c.id', 'a.counterparty_company_id')
    .selectAll('a')
    .select('c.name as counterparty_name')
    .where('a.seller_company_id', '=', f.sellerId)
    .where('a.environment', '=', f.environment);
  if (f.from !== undefined) query = query.where('a.created_at', '>=', f.from);
  if (f.to !== undefined) query = query.where('a.created_at', '<', f.to);
  if (f.kinds && f.kinds.length > 0) query = query.where('a.kind', 'in', f.kinds);
  if (f.promoId) query = query.where('a.promo_id', '=', f.promoId);
  if (f.counterparty) query = query.where('a.counterparty_company_id', '=', f.counterparty);
  if (f.orderReference) query = query.where('a.order_reference', '=', f.orderReference);
  if (f.before) {
    const [at, id] = f.before;
    // A row-value comparison: both engines seek the (seller, environment, created_at, id) index.
    query = query.where((eb) => eb(eb.refTuple('a.created_at', 'a.id'), '<', eb.tuple(at, id)));
  }
  return query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(limit);
}

/** A page of activity entries: off the event loop on SQLite (heavy-read.ts). */
export const listActivity = (ex: Executor, f: ActivityFilter, limit: number) =>
  heavyRead(ex, activityQuery(ex, f, limit));

export type ActivityRow = Awaited<ReturnType<typeof listActivity>>[number];

/** The first sale or custody pull of a seller in one environment, if any. */
export function firstMovement(ex: Executor, scope: SellerRows) {
  return ex
    .selectFrom('activity_entries')
    .select(['created_at', 'order_reference'])
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('kind', 'in', ['sale', 'pull'])
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}
