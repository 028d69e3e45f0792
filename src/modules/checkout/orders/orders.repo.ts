import type { Insertable, Selectable, SelectQueryBuilder } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.js';
import type { Database, Executor } from '../../../db/database.js';
import { heavyRead } from '../../../db/heavy-read.js';
import type { OrdersTable, RedemptionsTable } from '../checkout.table.js';

export type OrderRow = Selectable<OrdersTable>;

const ORDER_COLUMNS = [
  'id',
  'readable_id',
  'seller_company_id',
  'environment',
  'api_key_id',
  'reference_owner',
  'order_reference',
  'kind',
  'bulk_line',
  'delivery',
  'sku_id',
  'sku_code',
  'product_id',
  'allocation_id',
  'publisher_company_id',
  'quantity',
  'pulled',
  'unit_price_cents',
  'initial_unit_price_cents',
  'currency_code',
  'country_code',
  'wholesale_unit_price_cents',
  'wholesale_currency_code',
  'promo',
  'hold_id',
  'reservation_id',
  'consumer_geo_attest_id',
  'detected_country_code',
  'country_mismatch',
  'consumer_ip_hash',
  'integration_context',
  'warnings',
  'contract_date',
  'revealed_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof OrdersTable)[];

const insertOrderOnce = compiledOnce(ORDER_COLUMNS, (db, row) =>
  db.insertInto('orders').values(row as never),
);

/** Writes an order row (every column: the statement is compiled once). */
export async function insertOrder(ex: Executor, row: Insertable<OrdersTable>): Promise<void> {
  await insertOrderOnce(ex, row as Record<(typeof ORDER_COLUMNS)[number], unknown>);
}

const byReference = compiledOnce(['environment', 'owner', 'reference'], (db, v) =>
  db
    .selectFrom('orders')
    .selectAll()
    .where('environment', '=', v.environment)
    .where('reference_owner', '=', v.owner)
    .where('order_reference', '=', v.reference),
);

export async function findByReference(
  ex: Executor,
  environment: string,
  owner: string,
  reference: string,
): Promise<OrderRow | undefined> {
  return (await byReference(ex, { environment, owner, reference })).rows[0];
}

export function findOrder(ex: Executor, sellerId: string, environment: string, id: string) {
  return ex
    .selectFrom('orders')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('environment', '=', environment)
    .where((eb) => eb.or([eb('id', '=', id), eb('readable_id', '=', id)]))
    .executeTakeFirst();
}

/** Any company's order by id, for the operator: its reference and delivery. */
export const orderForOperator = (ex: Executor, id: string) =>
  ex
    .selectFrom('orders')
    .select(['id', 'order_reference', 'delivery'])
    .where('id', '=', id)
    .executeTakeFirst();

export interface OrderListFilter {
  sellerId: string;
  environment: string;
  orderReference?: string;
  from?: number;
  to?: number;
  /** Keyset: orders strictly older than (created_at, id). */
  before?: readonly [number, string];
  limit: number;
  skuCode?: string;
  origin?: OrderOrigin;
}

/**
 * How an order came to be, as the console searches it: a single order, a line of a bulk cart
 * (`POST /orders/bulk`; orders written before migration 0033 count as single), a pull, a
 * catalog export, the commit of a hot-drop reservation, or a pre-order (open, cancelled or
 * failed, single or bulk; a converted pre-order delivers like an order and keeps its origin).
 */
export const ORDER_ORIGINS = ['order', 'bulk', 'pull', 'export', 'reservation', 'preorder'] as const;
export type OrderOrigin = (typeof ORDER_ORIGINS)[number];

const PREORDER_STATES = ['preorder', 'cancelled', 'failed'] as const;

function whereOrigin<Q extends SelectQueryBuilder<Database, 'orders', object>>(
  query: Q,
  origin: OrderOrigin,
): Q {
  if (origin === 'pull' || origin === 'export') return query.where('kind', '=', origin) as Q;
  if (origin === 'preorder') return query.where('delivery', 'in', PREORDER_STATES) as Q;
  // A commit (always a single order of keys) names its reservation in its own row (0035): a
  // seek of the partial index `orders_seller_reservation_commits`.
  if (origin === 'reservation') return query.where('reservation_id', 'is not', null) as Q;
  const orders = query.where('kind', '=', 'order').where('delivery', 'not in', PREORDER_STATES) as Q;
  if (origin === 'bulk') return orders.where('bulk_line', '=', 1) as Q;
  return orders.where('bulk_line', '=', 0).where('reservation_id', 'is', null) as Q;
}

/** Newest first. */
export function listOrders(ex: Executor, f: OrderListFilter) {
  let query = ex
    .selectFrom('orders')
    .selectAll()
    .where('seller_company_id', '=', f.sellerId)
    .where('environment', '=', f.environment);
  if (f.orderReference) query = query.where('order_reference', '=', f.orderReference);
  if (f.skuCode) query = query.where('sku_code', '=', f.skuCode);
  if (f.origin) query = whereOrigin(query, f.origin);
  if (f.from !== undefined) query = query.where('created_at', '>=', f.from);
  if (f.to !== undefined) query = query.where('created_at', '<', f.to);
  if (f.before) {
    const [at, id] = f.before;
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]),
    );
  }
  // A list page: off the event loop on SQLite (heavy-read.ts).
  return heavyRead(
    ex,
    query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit + 1),
  );
}

export async function markRevealed(ex: Executor, id: string, now: number): Promise<void> {
  await ex.updateTable('orders').set({ revealed_at: now, updated_at: now }).where('id', '=', id).execute();
}

export async function insertRedemption(ex: Executor, row: Insertable<RedemptionsTable>): Promise<void> {
  await ex.insertInto('redemptions').values(row).execute();
}

export function redemptionOfOrder(ex: Executor, orderId: string) {
  return ex.selectFrom('redemptions').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** (order, key) of every key of these orders a refund or chargeback took back or a replacement swapped. */
export async function takenBackRows(ex: Executor, orderIds: readonly string[]) {
  const [refunded, replaced] = await Promise.all([
    ex.selectFrom('refund_keys').select(['order_id', 'key_id']).where('order_id', 'in', orderIds).execute(),
    ex
      .selectFrom('key_replacements')
      .select(['order_id', 'replaced_key_id as key_id'])
      .where('order_id', 'in', orderIds)
      .execute(),
  ]);
  return [...refunded, ...replaced];
}
