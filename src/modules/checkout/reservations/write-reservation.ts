import type { AppContext } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import { isTransientStoreError } from '../../../db/transient-errors.js';
import { emitEventList, ensureEventDays, outboxRowsOf } from '../../events/index.js';
import type { Quote, SellerActor } from '../line/quote.js';
import { recordReservation, takeAndRecord } from './admission.pg.js';
import * as repo from './reservations.repo.js';
import type { ReservationsTable } from './reservations.table.js';
import { SLOTS, type SlotStore, type Taken } from './slot-store.js';

const reservedEvent = (actor: SellerActor, row: ReservationsTable) => ({
  recipients: [{ companyId: actor.sellerId, environment: actor.environment }],
  eventType: 'order.reserved' as const,
  data: {
    orderReference: row.order_reference,
    skuCode: row.sku_code,
    quantity: row.quantity,
    expectedReleaseAt: null,
  },
});

/** The reservation row and its `order.reserved`, in the caller's transaction. */
export async function recordReservationRow(
  ctx: AppContext,
  trx: Executor,
  actor: SellerActor,
  row: ReservationsTable,
) {
  await repo.insertReservation(trx, row);
  await emitEventList(ctx, trx, [reservedEvent(actor, row)]);
}

/**
 * Takes units from the store and writes the reservation: the one way a reservation is written
 * from free units (a refill writes it under the grant's lock, refill.ts). SQLite: both in one transaction (one
 * member of a group commit). PostgreSQL: one statement with the database store; with Redis,
 * the units are taken there first and go back if the write fails. Null when the store has
 * none to give; `'unproven'` when the statement could not prove the catalog version a
 * speculative quote was judged on (PostgreSQL).
 */
export async function writeReservation(
  ctx: AppContext,
  store: SlotStore,
  actor: SellerActor,
  { versionToProve }: Quote,
  row: ReservationsTable,
): Promise<Taken | null | 'unproven'> {
  if (ctx.engine !== 'postgres') {
    return ctx.db.transaction().execute(async (trx) => {
      const taken = await store.take(trx, row.allocation_id, row.quantity);
      if (!taken) return null;
      row.slot = taken.slot;
      await recordReservationRow(ctx, trx, actor, row);
      return taken;
    });
  }
  const event = outboxRowsOf(ctx, [reservedEvent(actor, row)])[0]!;
  await ensureEventDays(ctx, [event.event_id]);
  if (store.transactional) {
    const start = Math.floor(Math.random() * SLOTS);
    const taken = await takeAndRecord(ctx.db, row, event, start, versionToProve);
    if (taken && taken !== 'unproven') row.slot = taken.slot;
    return taken;
  }
  const taken = await store.take(ctx.db, row.allocation_id, row.quantity);
  if (!taken) return null;
  row.slot = taken.slot;
  let recorded: boolean | 'unproven';
  try {
    recorded = await recordReservation(ctx.db, row, event, versionToProve, taken.generation ?? 0);
  } catch (err) {
    // Written or not, nobody knows after a lost connection: the copy is rebuilt from the database.
    if (isTransientStoreError(err)) await store.markStale(ctx.db, row.allocation_id).catch(() => undefined);
    else await giveBack(store, ctx, row, taken);
    throw err;
  }
  if (recorded === true) return taken;
  // Unproven, or the copy the units came from was rebuilt or is stale (the refill path syncs it).
  await giveBack(store, ctx, row, taken);
  return recorded === 'unproven' ? recorded : null;
}

async function giveBack(store: SlotStore, ctx: AppContext, row: ReservationsTable, taken: Taken) {
  await store
    .put(ctx.db, row.allocation_id, taken.slot, row.quantity, taken.generation)
    .catch(() => store.markStale(ctx.db, row.allocation_id).catch(() => undefined));
}
