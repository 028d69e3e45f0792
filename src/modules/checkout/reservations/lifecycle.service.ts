import type { AppContext } from '../../../context.js';
import { fail } from '../../../http/errors.js';
import { isoOf } from '../../../lib/clock.js';
import { emit } from '../../events/index.js';
import type { SellerActor } from '../line/quote.js';
import { slotStoreOf } from './admission-store.js';
import { returnUnits } from './pool.js';
import * as repo from './reservations.repo.js';
import { RESERVATION_TTL_MS, reservedPriceOfRow } from './reservations.service.js';

/** How many expired reservations one sweep round ends. */
const SWEEP_BATCH = 500;

/** The seller's own reservation; anything else (unknown, another company's) is 410 RESERVATION_GONE. */
export async function requireOwnReservation(ctx: AppContext, actor: SellerActor, id: string) {
  const row = await repo.findReservation(ctx.db, id);
  if (!row || row.seller_company_id !== actor.sellerId || row.environment !== actor.environment) {
    throw gone(id, 'unknown');
  }
  return row;
}

const gone = (reservationId: string, state: string) =>
  fail('RESERVATION_GONE', `Reservation ${reservationId} is ${state}; reserve again.`, {
    reservationId,
    state,
  });

/** Why a reservation could not move: being committed (409) or ended (410). */
export async function notLive(ctx: AppContext, id: string, now: number) {
  const row = await repo.findReservation(ctx.db, id);
  const expired = !row || row.expires_at <= now;
  if (row?.status === 'committing' && !expired) {
    return fail('RESERVATION_COMMIT_IN_PROGRESS', `Reservation ${id} is being committed.`, {
      reservationId: id,
    });
  }
  return gone(
    id,
    !row ? 'unknown' : expired && ['live', 'committing'].includes(row.status) ? 'expired' : row.status,
  );
}

/** POST /orders/{reservationId}/extend: once, by the TTL again, from the service clock. */
export async function extendReservation(ctx: AppContext, actor: SellerActor, id: string) {
  const row = await requireOwnReservation(ctx, actor, id);
  const now = ctx.clock.now();
  if (!(await repo.extendReservation(ctx.db, id, RESERVATION_TTL_MS, now))) {
    if (row.status === 'live' && row.extended === 1 && row.expires_at > now) {
      throw fail('RESERVATION_EXTEND_EXHAUSTED', `Reservation ${id} was already extended once.`, {
        reservationId: id,
        expiresAt: isoOf(row.expires_at),
      });
    }
    throw await notLive(ctx, id, now);
  }
  const expiresAt = row.expires_at + RESERVATION_TTL_MS;
  const price = reservedPriceOfRow(row);
  return {
    type: 'reservation' as const,
    reservationId: id,
    allocationId: row.allocation_id,
    skuCode: row.sku_code,
    quantity: row.quantity,
    expiresAt: isoOf(expiresAt),
    expiresInSeconds: Math.round((expiresAt - now) / 1000),
    remainingSlots: Math.max(0, await slotStoreOf(ctx).remaining(ctx.db, row.allocation_id)),
    orderReference: row.order_reference,
    unitPriceCents: price?.unitPriceCents ?? null,
    currencyCode: price?.currencyCode ?? null,
    extended: true,
  };
}

/** POST /orders/cancel with `reservationId`: a live reservation is released, its slots come back. */
export async function cancelReservation(ctx: AppContext, actor: SellerActor, id: string) {
  const row = await requireOwnReservation(ctx, actor, id);
  const now = ctx.clock.now();
  const after = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.moveReservation(trx, id, 'live', 'released', now))) return null;
    await emit(ctx, trx, [{ companyId: actor.sellerId, environment: actor.environment }], 'order.returned', {
      orderReference: row.order_reference,
      quantity: row.quantity,
    });
    return returnUnits(ctx, trx, [row]);
  });
  if (!after) throw await notLive(ctx, id, now);
  await after();
  return {
    type: 'reservation' as const,
    reservationId: id,
    orderReference: row.order_reference,
    quantity: row.quantity,
    status: 'released' as const,
  };
}

/**
 * The expiry sweep (a job in every process; rows claimed with SKIP LOCKED): reservations past
 * their TTL end as `expired` and their units return without any request arriving. Until it
 * runs, an expired reservation is already refused (expiry is checked on every read), and its
 * units stay promised: late by a sweep interval, never early.
 */
export async function sweepReservations(ctx: AppContext): Promise<boolean> {
  const now = ctx.clock.now();
  const { count, after } = await ctx.db.transaction().execute(async (trx) => {
    const rows = await repo.expireDue(trx, now, SWEEP_BATCH);
    return { count: rows.length, after: await returnUnits(ctx, trx, rows) };
  });
  await after();
  return count === SWEEP_BATCH;
}
