import type { AppContext } from '../../../context.js';
import type { GrantPromises } from '../../allocations/index.js';
import { cancelLiveHolds } from '../holds/holds.repo.js';
import { preorderHoldersOfRelease } from '../preorders/preorders.repo.js';
import { retirePool } from '../reservations/pool.js';
import { promisedOn, promisedOnAllocation } from './promised-capacity.repo.js';

/** Checkout's side of `GrantPromises`, for the context of `contextOf()` (made after it). */
export function checkoutPromises(contextOf: () => AppContext): GrantPromises {
  return {
    promisedOn,
    promisedOnAllocation,
    grantStopped: (trx, allocationId) => cancelLiveHolds(trx, allocationId, contextOf().clock.now()),
    hotDropEnded: (trx, allocationId) => retirePool(contextOf(), trx, allocationId),
    preorderHolders: preorderHoldersOfRelease,
  };
}
