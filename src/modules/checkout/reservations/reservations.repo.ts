import type { Insertable, Selectable } from 'kysely';
import { compiledOnce, insertOnce } from '../../../db/compiled-once.js';
import type { Executor } from '../../../db/database.js';
import { forUpdateSkipLocked, writeInGroup } from '../../../db/dialect.js';
import type { ReservationStatus, ReservationsTable } from './reservations.table.js';

export type ReservationRow = Selectable<ReservationsTable>;

const insertReservationRow = insertOnce('reservations');

export async function insertReservation(ex: Executor, row: Insertable<ReservationsTable>): Promise<void> {
  await insertReservationRow(ex, [row]);
}

export function findReservation(ex: Executor, id: string): Promise<ReservationRow | undefined> {
  return ex.selectFrom('reservations').selectAll().where('id', '=', id).executeTakeFirst();
}

const markCommitting = compiledOnce(['id', 'sellerId', 'environment', 'now'], (db, v) =>
  db
    .updateTable('reservations')
    .set({ status: 'committing', updated_at: v.now as never })
    .where('id', '=', v.id)
    .where('seller_company_id', '=', v.sellerId)
    .where('environment', '=', v.environment)
    .where('status', '=', 'live')
    .where('expires_at', '>', v.now as never)
    .returningAll(),
);

/**
 * The seller's own live, unexpired reservation made `committing` in one statement; undefined
 * when it was not so. On SQLite a member of a group commit (`writeInGroup`).
 */
export async function startCommit(
  ex: Executor,
  id: string,
  owner: { sellerId: string; environment: string },
  now: number,
): Promise<ReservationRow | undefined> {
  const { sellerId, environment } = owner;
  return writeInGroup(ex, async (w) => (await markCommitting(w, { id, sellerId, environment, now })).rows[0]);
}

const moveStatus = compiledOnce(['id', 'from', 'to', 'now'], (db, v) =>
  db
    .updateTable('reservations')
    .set({ status: v.to as never, updated_at: v.now as never })
    .where('id', '=', v.id)
    .where('status', '=', v.from as never)
    .where('expires_at', '>', v.now as never),
);

/** Moves a reservation from one status to another while it has not expired; false when it was not so. */
export async function moveReservation(
  ex: Executor,
  id: string,
  from: ReservationStatus,
  to: ReservationStatus,
  now: number,
): Promise<boolean> {
  const result = await moveStatus(ex, { id, from, to, now });
  return Number(result.numAffectedRows ?? 0n) === 1;
}

/** The one extension: by `ttlMs` past its current expiry; false when live-and-unextended did not hold. */
export async function extendReservation(ex: Executor, id: string, ttlMs: number, now: number) {
  const result = await ex
    .updateTable('reservations')
    .set((eb) => ({ expires_at: eb('expires_at', '+', ttlMs), extended: 1, updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'live')
    .where('extended', '=', 0)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends up to `limit` reservations past their expiry (claimed with SKIP LOCKED); returns them. */
export async function expireDue(ex: Executor, now: number, limit: number) {
  const due = forUpdateSkipLocked(
    ex,
    ex
      .selectFrom('reservations')
      .select('id')
      .where('status', 'in', ['live', 'committing'])
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit),
  );
  return ex
    .updateTable('reservations')
    .set({ status: 'expired', updated_at: now })
    .where('id', 'in', due)
    .where('status', 'in', ['live', 'committing'])
    .returning(['id', 'allocation_id', 'slot', 'quantity'])
    .execute();
}

/** Creates the allocation's pool row on its first refill. */
export async function ensurePool(ex: Executor, allocationId: string): Promise<void> {
  await ex
    .insertInto('reservation_pools')
    .values({ allocation_id: allocationId, carved: 0, uncarved: 0 })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

const addCarved = compiledOnce(['allocationId', 'delta'], (db, v) =>
  db
    .updateTable('reservation_pools')
    .set((eb) => ({ carved: eb('carved', '+', v.delta as never) }))
    .where('allocation_id', '=', v.allocationId),
);

/** Moves the carved total by `delta` (positive: carved for reservations; negative: given back or sold). */
export async function moveCarved(ex: Executor, allocationId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await addCarved(ex, { allocationId, delta });
}

export async function hotDropFlags(ex: Executor, allocationIds: string[]) {
  if (allocationIds.length === 0) return new Map<string, boolean>();
  const rows = await ex
    .selectFrom('allocations')
    .select(['id', 'hot_drop'])
    .where('id', 'in', allocationIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r.hot_drop === 1]));
}

/**
 * The reservation an order committed (`orders.reservation_id`), within the order's company and
 * environment: a seek of the primary key (the console's order page).
 */
export function reservationOfOrder(
  ex: Executor,
  order: { seller_company_id: string; environment: string; reservation_id: string | null },
) {
  if (order.reservation_id === null) return Promise.resolve(undefined);
  return ex
    .selectFrom('reservations')
    .select(['id', 'status', 'quantity', 'extended', 'expires_at', 'created_at'])
    .where('id', '=', order.reservation_id)
    .where('seller_company_id', '=', order.seller_company_id)
    .where('environment', '=', order.environment)
    .executeTakeFirst();
}

/**
 * The reservations under an order reference, newest first: a seek of
 * `reservations_seller_reference` (the console's search of a reference).
 */
export function reservationsUnderReference(
  ex: Executor,
  scope: { sellerId: string; environment: string },
  orderReference: string,
  limit: number,
) {
  return ex
    .selectFrom('reservations')
    .select(['id', 'sku_code', 'quantity', 'status', 'extended', 'expires_at', 'created_at'])
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .where('order_reference', '=', orderReference)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** How many reservations of the grant are live or committing, and their units. */
export async function liveReservationTotals(ex: Executor, allocationId: string) {
  const row = await ex
    .selectFrom('reservations')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.coalesce(eb.fn.sum<number>('quantity'), eb.val(0)).as('units'),
    ])
    .where('allocation_id', '=', allocationId)
    .where('status', 'in', ['live', 'committing'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), units: Number(row.units) };
}
