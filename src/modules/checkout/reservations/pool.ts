import type { AppContext } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import { slotStoreOf } from './admission-store.js';
import { generationsOf } from './pool-generation.repo.js';
import * as repo from './reservations.repo.js';

/**
 * Hot-drop mode turned off (in the operator's transaction, under the grant's lock): the free
 * carved units leave the store and stop being promised (with Redis: every carved unit no live
 * or committing reservation holds, whatever Redis says). Units of reservations still live stay
 * carved until they are committed (refused: ALLOCATION_NOT_AVAILABLE) or end; the sweep then
 * uncarves them instead of returning them to the store.
 */
export async function retirePool(ctx: AppContext, trx: Executor, allocationId: string): Promise<void> {
  const freed = await slotStoreOf(ctx).retire(trx, allocationId);
  await repo.moveCarved(trx, allocationId, -freed);
}

/**
 * Units of ended reservations, inside the transaction that ended them: back to the store while
 * in hot-drop mode, else uncarved. Returns what must run after the commit (Redis puts).
 */
export async function returnUnits(
  ctx: AppContext,
  trx: Executor,
  units: readonly { allocation_id: string; slot: number | null; quantity: number }[],
): Promise<() => Promise<void>> {
  const hot = await repo.hotDropFlags(trx, [...new Set(units.map((u) => u.allocation_id))]);
  const store = slotStoreOf(ctx);
  const later: (typeof units)[number][] = [];
  for (const u of units) {
    if (!hot.get(u.allocation_id)) await repo.moveCarved(trx, u.allocation_id, -u.quantity);
    else if (store.transactional) await store.put(trx, u.allocation_id, u.slot, u.quantity);
    else later.push(u);
  }
  // Read after the reservations moved: a rebuild of the copy either counted these units as
  // free (and the generation read here is the old one: the put is dropped) or waited for this
  // transaction and counted them as held (the generation is the new one: the put applies).
  const generations = await generationsOf(trx, [...new Set(later.map((u) => u.allocation_id))]);
  return async () => {
    for (const u of later) {
      await store
        .put(ctx.db, u.allocation_id, u.slot, u.quantity, generations.get(u.allocation_id))
        .catch(() => store.markStale(ctx.db, u.allocation_id).catch(() => undefined));
    }
  };
}
