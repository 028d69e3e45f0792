import { type AppContext, runInBackground } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import { fail } from '../../../http/errors.js';
import {
  type AllocationRow,
  recordPromise,
  remainingOf,
  requireAllocation,
} from '../../allocations/index.js';
import { stockUpTo } from '../../inventory/index.js';
import { promisedOnAllocation } from '../line/promised-capacity.repo.js';
import type { Quote } from '../line/quote.js';
import { catalogStillCurrent } from './admission.pg.js';
import * as pools from './pool-generation.repo.js';
import * as repo from './reservations.repo.js';
import { SLOTS, type SlotStore, slotsLeft, type Taken } from './slot-store.js';

/**
 * Units carved ahead per refill: 16 per slot, so that refills are rare under load (a refill
 * locks the grant; with smaller chunks refills set the rate on PostgreSQL, measured in
 * docs/hot-drops.md, "Slots: promises in chunks"), but never more than an eighth of what is
 * left, so that holds and orders on the grant (which count carved units as promised) lose
 * little to units no buyer reserved yet.
 */
const CHUNK = 16 * SLOTS;
const chunkOf = (capacity: number) => Math.min(CHUNK, Math.ceil(capacity / 8));

/**
 * Free units under which a take tops the store up in the background: a quarter of the chunk
 * a refill would carve of what is left (128 units on a large grant, about a tenth of a second
 * of demand at 1,500 reservations a second; none on a grant of a few dozen units).
 */
const lowWaterOf = (remaining: number) => Math.floor(chunkOf(remaining) / 4);

/** The reservation a refill writes: its units, and the slot it took them from (set here). */
interface Refilled {
  quantity: number;
  allocation_id: string;
  slot: number | null;
}

/** The refill or top-up under way in this process, per allocation. */
const refilling = new WeakMap<AppContext, Map<string, Promise<unknown>>>();

/** The refill or top-up of the allocation under way in this process, if any. */
export const refillUnderWay = (ctx: AppContext, allocationId: string) =>
  refilling.get(ctx)?.get(allocationId);

/** `work` becomes the allocation's refill in this process unless one is under way, until it settles. */
export function trackRefill(ctx: AppContext, allocationId: string, work: Promise<unknown>): void {
  let inFlight = refilling.get(ctx);
  if (!inFlight) {
    inFlight = new Map();
    refilling.set(ctx, inFlight);
  }
  if (inFlight.has(allocationId)) return;
  inFlight.set(allocationId, work);
  const forget = () => {
    if (inFlight.get(allocationId) === work) inFlight.delete(allocationId);
  };
  work.then(forget, forget);
}

/**
 * Under the grant's row lock: what can still be carved, after every promise (holds,
 * pre-orders, what is already carved) within headroom and stock.
 */
async function capacityOf(ctx: AppContext, trx: Executor, allocation: AllocationRow, skuId: string) {
  const promised = await promisedOnAllocation(trx, allocation.id, ctx.clock.now());
  const remaining = remainingOf(allocation);
  const stock = await stockUpTo(trx, skuId, allocation.environment, allocation.id, remaining);
  return Math.max(0, Math.min(remaining, stock) - promised);
}

/** Moves `units` into the carved total, and `promise_version` as a hold does. */
async function carve(trx: Executor, allocation: AllocationRow, units: number) {
  await repo.moveCarved(trx, allocation.id, units);
  if (units > 0) await recordPromise(trx, allocation);
}

/**
 * The locked path. Under the grant's row lock: take again (a refill that ran while this one
 * waited may have filled the store), else carve a chunk of what is left (`capacityOf`).
 * Short of that, the free units still scattered in the store are drained and counted:
 * SOLD_OUT only when even they and the headroom cannot cover it. `record` writes the
 * reservation in the same transaction. With Redis the new free units reach it only after the
 * carve committed. `'unproven'` when the quote was judged on a catalog version nobody read
 * (`Quote.versionToProve`) and the version moved since: nothing written.
 */
export async function refill(
  ctx: AppContext,
  store: SlotStore,
  quote: Quote,
  row: Refilled,
  record: (trx: Executor) => Promise<void>,
): Promise<Taken | 'unproven'> {
  const q = row.quantity;
  // Redis units taken or drained inside the transaction: given back if it fails.
  let owed = 0;
  let generation = 0;
  let fill: { units: number; uncarved: number } | null = null;
  try {
    const taken = await ctx.db.transaction().execute(async (trx): Promise<Taken | 'unproven'> => {
      if (quote.versionToProve !== null && !(await catalogStillCurrent(trx, quote.versionToProve))) {
        return 'unproven';
      }
      const allocation = await requireAllocation(trx, row.allocation_id, true);
      if (allocation.status !== 'active') throw fail('FORBIDDEN', `The allocation is ${allocation.status}.`);
      if (allocation.hot_drop !== 1) throw fail('HOT_DROP_NOT_ENABLED', 'Hot-drop mode was turned off.');
      await repo.ensurePool(trx, allocation.id);
      generation = await store.sync(trx, allocation.id);
      const again = await store.take(trx, allocation.id, q, true);
      if (again) {
        if (!store.transactional) owed = q;
        row.slot = again.slot;
        await record(trx);
        return again;
      }
      const capacity = await capacityOf(ctx, trx, allocation, quote.sku.id);
      const drained = capacity < q ? await store.drain(trx, allocation.id, generation) : 0;
      if (!store.transactional) owed = drained;
      if (drained + capacity < q) {
        throw fail('SOLD_OUT', `No reservation slots of ${quote.sku.code} are left.`, {
          skuCode: quote.sku.code,
          requested: q,
          available: drained + capacity,
        });
      }
      const units = Math.min(capacity, Math.max(q - drained, chunkOf(capacity)));
      await carve(trx, allocation, units);
      fill = { units: drained + units - q, uncarved: capacity - units };
      if (!store.transactional) await pools.recordUncarved(trx, allocation.id, fill.uncarved);
      row.slot = null;
      await record(trx);
      // Last before the commit: filling locks every slot row (`DatabaseSlotStore.fill`).
      if (store.transactional) await store.fill(trx, allocation.id, fill.units, fill.uncarved);
      return { slot: null, free: fill.units, uncarved: fill.uncarved };
    });
    owed = 0;
    const filled = fill as { units: number; uncarved: number } | null;
    if (filled && !store.transactional)
      await fillAfterCommit(ctx, store, row.allocation_id, filled, generation);
    return taken;
  } catch (err) {
    if (owed > 0) {
      await store
        .put(ctx.db, row.allocation_id, null, owed, generation)
        .catch(() => store.markStale(ctx.db, row.allocation_id).catch(() => undefined));
    }
    throw err;
  }
}

/** Redis: the carved units reach the copy after the carve committed; if they cannot, it is rebuilt. */
async function fillAfterCommit(
  ctx: AppContext,
  store: SlotStore,
  allocationId: string,
  fill: { units: number; uncarved: number },
  generation: number,
) {
  await store
    .fill(ctx.db, allocationId, fill.units, fill.uncarved, generation)
    .catch(() => store.markStale(ctx.db, allocationId).catch(() => undefined));
}

/**
 * After a take that left the store low (`lowWaterOf`) while capacity is still uncarved, and
 * no refill of the allocation runs in this process: a top-up in the background, a refill
 * without a reservation. Requests that find the store empty meanwhile wait for it rather
 * than refill themselves (`refillUnderWay`). It answers nobody: a grant paused or taken out of
 * hot-drop mode since is left as it is.
 */
export function topUpWhenLow(ctx: AppContext, store: SlotStore, quote: Quote, taken: Taken): void {
  if (taken.free <= 0 || taken.uncarved <= 0 || taken.free >= lowWaterOf(slotsLeft(taken))) return;
  const allocationId = quote.allocation.id;
  if (refillUnderWay(ctx, allocationId)) return;
  trackRefill(
    ctx,
    allocationId,
    runInBackground(ctx, () => topUp(ctx, store, allocationId, quote.sku.id)),
  );
}

async function topUp(ctx: AppContext, store: SlotStore, allocationId: string, skuId: string) {
  const fill = await ctx.db.transaction().execute(async (trx) => {
    const allocation = await requireAllocation(trx, allocationId, true);
    if (allocation.status !== 'active' || allocation.hot_drop !== 1) return null;
    await repo.ensurePool(trx, allocation.id);
    const generation = await store.sync(trx, allocation.id);
    const capacity = await capacityOf(ctx, trx, allocation, skuId);
    const units = chunkOf(capacity);
    if (units === 0) return null;
    await carve(trx, allocation, units);
    const filled = { units, uncarved: capacity - units, generation };
    if (!store.transactional) await pools.recordUncarved(trx, allocation.id, filled.uncarved);
    if (store.transactional) await store.fill(trx, allocation.id, filled.units, filled.uncarved);
    return filled;
  });
  if (fill && !store.transactional) await fillAfterCommit(ctx, store, allocationId, fill, fill.generation);
}
