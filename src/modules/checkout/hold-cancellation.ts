import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { cancelLiveHolds } from './holds.repo.js';

/** SPEC 3.1: a publisher pausing or revoking a grant cancels its live checkout holds (same transaction). */
export function cancelHoldsOfAllocation(
  ctx: AppContext,
  trx: Executor,
  allocationId: string,
): Promise<number> {
  return cancelLiveHolds(trx, allocationId, ctx.clock.now());
}
