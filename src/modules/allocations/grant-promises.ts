import type { Executor } from '../../db/database.js';

/** What a caller leaves out of the sum: the hold an order consumes, the pre-order being placed. */
export interface PromisedExcept {
  holdId?: string;
  orderId?: string;
}

/**
 * What checkout has promised on grants and not pulled yet (live checkout holds, accepted
 * pre-orders, units carved for hot-drop reservations), what a grant's change ends there, and
 * who holds a pre-order of a release. Allocations and catalog are given this
 * (`AppContext.promises`, wired where the context is made) instead of importing checkout, which
 * depends on both.
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
  /** The sellers holding an accepted pre-order of one of the release's SKUs (catalog tells them of its progress). */
  preorderHolders(
    ex: Executor,
    releaseId: string,
  ): Promise<{ seller_company_id: string; environment: string }[]>;
}
