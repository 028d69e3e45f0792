import type { AppContext } from '../../context.js';
import { isoOf } from '../../lib/clock.js';
import { liveReservationTotals, slotStoreOf } from '../checkout/index.js';
import { allocationEvents } from '../events/index.js';

/** The points a stock chart shows at most (the newest). */
const MAX_POINTS = 500;
const STOCK_EVENTS = ['allocation.updated', 'allocation.low_stock', 'allocation.depleted'] as const;

/**
 * An allocation's remaining keys over time, from what the platform already records: every
 * grant, pull, top-up, pause and revoke writes an `allocation.*` event carrying `remaining` to the
 * company's outbox, in the transaction that changed it. The series is those events, oldest
 * first, as far back as events are kept, ending with the remaining now.
 */
export async function stockHistory(
  ctx: AppContext,
  scope: { sellerId: string; environment: string },
  allocationId: string,
  remainingNow: number,
) {
  const rows = await allocationEvents(
    ctx.db,
    { companyId: scope.sellerId, environment: scope.environment },
    allocationId,
    STOCK_EVENTS,
    MAX_POINTS,
  );
  const points = rows.reverse().map((row) => ({
    at: isoOf(Math.floor(Number(row.created_at_us) / 1000)),
    remaining: (JSON.parse(row.payload) as { remaining: number }).remaining,
    event: row.event_type,
  }));
  points.push({ at: isoOf(ctx.clock.now()), remaining: remainingNow, event: 'now' });
  return points;
}

/** A hot-drop grant's live reservations (units not yet committed or released) and slots left. */
export async function hotDropState(ctx: AppContext, allocationId: string) {
  const [live, slotsLeft] = await Promise.all([
    liveReservationTotals(ctx.db, allocationId),
    slotStoreOf(ctx).remaining(ctx.db, allocationId),
  ]);
  return {
    liveReservations: live.count,
    reservedUnits: live.units,
    slotsLeft: Math.max(0, slotsLeft),
  };
}
