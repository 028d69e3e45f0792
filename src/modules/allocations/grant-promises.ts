import type { Executor } from '../../db/database.js';

/** What a caller leaves out of the sum: the hold an order consumes, the pre-order being placed. */
export interface PromisedExcept {
  holdId?: string;
  orderId?: string;
}

/**
 * What checkout has promised on grants and not pulled yet (live checkout holds, accepted
 * pre-orders, units carved for hot-drop reservations), and what a grant's change ends there.
 * Allocations is given this (`AppContext.promises`, wired where the context is made) instead
 * of importing checkout, which depends on allocations.
 */
export interface GrantPromises {
  /** Keys promised but not pulled, per allocation (absent: none). */
  promisedOn(
    ex: Executor,
    allocationIds: readonly string[],
    now: number,
    except?: PromisedExcept,
  ): Promise<Map<string, number>>;
  /** What is promised on one allocation. */
  promisedOnAllocation(
    ex: Executor,
    allocationId: string,
    now: number,
    except?: PromisedExcept,
  ): Promise<number>;
  /** A grant paused or revoked: its live checkout holds are cancelled, in the same transaction. */
  grantStopped(trx: Executor, allocationId: string): Promise<unknown>;
  /** Hot-drop mode turned off: the units carved ahead for reservations stop being promised. */
  hotDropEnded(trx: Executor, allocationId: string): Promise<void>;
}
