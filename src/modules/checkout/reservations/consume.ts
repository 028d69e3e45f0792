import type { Executor } from '../../../db/database.js';
import { fail } from '../../../http/errors.js';
import type { AllocationRow } from '../../allocations/index.js';
import * as repo from './reservations.repo.js';

/** The reservation a commit fulfils (POST /orders/commit), consumed inside the fulfilment. */
export interface ConsumedReservation {
  id: string;
  quantity: number;
}

/**
 * Inside the fulfilment's transaction, under the grant's row lock and before its promises are
 * summed: the reservation (marked `committing` by this commit) becomes `consumed` and its units
 * leave the carved total, so the order's own quantity is no longer counted as promised. The
 * grant must still be in hot-drop mode (409 ALLOCATION_NOT_AVAILABLE) and the reservation
 * unexpired (410 RESERVATION_GONE; the sweep may have ended it meanwhile).
 */
export async function consumeReservation(
  trx: Executor,
  locked: AllocationRow,
  reservation: ConsumedReservation,
  now: number,
): Promise<void> {
  if (locked.hot_drop !== 1) {
    throw fail('ALLOCATION_NOT_AVAILABLE', 'Hot-drop mode was turned off since the reservation.', {
      allocationId: locked.id,
      reason: 'hot_drop_disabled',
    });
  }
  await consumeReserved(trx, locked.id, reservation, now);
}

/**
 * The reservation (marked `committing` by this commit) becomes `consumed` and its units leave
 * the carved total, in the transaction that pulls them; 410 RESERVATION_GONE when it expired
 * meanwhile (the sweep may have ended it), which rolls the pull back with the rest.
 */
export async function consumeReserved(
  trx: Executor,
  allocationId: string,
  reservation: ConsumedReservation,
  now: number,
): Promise<void> {
  if (!(await repo.moveReservation(trx, reservation.id, 'committing', 'consumed', now))) {
    throw fail('RESERVATION_GONE', `Reservation ${reservation.id} expired before its commit finished.`, {
      reservationId: reservation.id,
    });
  }
  await repo.moveCarved(trx, allocationId, -reservation.quantity);
}
