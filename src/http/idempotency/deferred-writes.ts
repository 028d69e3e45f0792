import type { AppContext } from '../../context.js';
import { isTransientStoreError } from '../../db/transient-errors.js';

/** Between attempts while the store is still down. */
const RETRY_MS = 200;
/** A claim write still failing after this long is left to the lease and the heartbeat. */
const GIVE_UP_MS = 10 * 60 * 1000;

/** The retries waiting in each context; its close() cancels them (the heartbeat then frees the claims). */
const waiting = new WeakMap<AppContext, Set<NodeJS.Timeout>>();

function timersOf(ctx: AppContext): Set<NodeJS.Timeout> {
  let timers = waiting.get(ctx);
  if (!timers) {
    const created = new Set<NodeJS.Timeout>();
    timers = created;
    waiting.set(ctx, created);
    ctx.atClose(async () => {
      for (const timer of created) clearTimeout(timer);
      created.clear();
    });
  }
  return timers;
}

function retryLater(ctx: AppContext, write: () => Promise<unknown>, since: number) {
  const timers = timersOf(ctx);
  const timer = setTimeout(() => {
    timers.delete(timer);
    write().catch((err: unknown) => {
      if (isTransientStoreError(err) && Date.now() - since < GIVE_UP_MS) retryLater(ctx, write, since);
    });
  }, RETRY_MS);
  timer.unref();
  timers.add(timer);
}

/**
 * The last write of a claim (its release after a transient failure, or its stored reply), when
 * the store failed it: tried again every RETRY_MS until the store answers, so that a client's
 * retry is served within a moment of the database's return rather than refused as in progress
 * until the claim's lease ends. Never throws: the reply is already decided.
 */
export async function writeOrRetry(ctx: AppContext, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (isTransientStoreError(err)) retryLater(ctx, write, Date.now());
  }
}
