import type { Executor } from '../../db/database.js';

/**
 * A stored reply as it would be answered now. Checkout knows what changes since it was stored
 * (keys taken back leave it) and sits above src/http, so the idempotency layer is given this
 * (`AppContext.replays`, wired where the context is made) instead of importing checkout.
 */
export interface Replays {
  asAnsweredNow(ex: Executor, text: string): Promise<string>;
}
