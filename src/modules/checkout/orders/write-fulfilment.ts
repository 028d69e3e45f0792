import type { AppContext } from '../../../context.js';
import { inOwnTransaction } from '../../../db/guarded-writes.js';
import { throughLockCycles } from '../../../db/transient-errors.js';
import { keyedGate } from '../../../lib/gate.js';
import { catalogVersion } from '../line/catalog-cache.js';
import { type Fulfilment, fulfil, fulfilEndingTransaction } from './fulfil.service.js';
import type { FulfilRequest } from './fulfil-request.js';
import { fulfilInOneStatement, oneStatementPool } from './one-statement.pg.js';

/**
 * One-statement orders in flight per grant in this process. The grant's row lock admits one
 * statement at a time anyway; more waiting on it in the database cost context switches and
 * lock-queue work on the two cores the database shares with the app (measured with 32
 * connections on one SKU, docs/checkout.md: 2-4 in flight beat 8 and unbounded).
 */
const onHotGrant = keyedGate(4);

/**
 * Writes one fulfilment on its own, the one way every order, pull and reservation commit is
 * written: first optimistically, then, when that misses, on the locked path.
 *
 * - Optimistic: on PostgreSQL, a request of the one statement's shape is that statement
 *   (one-statement.pg.ts); any other request is a transaction of its own, which on PostgreSQL
 *   the grant's guarded update ends (`fulfilEndingTransaction`). A miss (the grant moved since
 *   the quote read it, too few keys) writes nothing and comes back as a value.
 * - Locked: `fulfil` in a transaction, which locks the grant and answers with the exact refusal.
 *
 * `'unproven'`: the quote was judged on a catalog version (`Quote.versionToProve`) that moved
 * before it was written; nothing was written and the caller quotes the line again. A run the
 * database rolls back to break a lock cycle runs again (`RUNS_THROUGH_LOCK_CYCLES`).
 */
export async function writeFulfilment(
  ctx: AppContext,
  request: FulfilRequest,
): Promise<Fulfilment | 'unproven'> {
  return runningThroughLockCycles(ctx, () => writeOnce(ctx, request));
}

/**
 * Runs `work` (one whole transaction or statement of the order path) again when the database
 * rolls it back to break a lock cycle, `RUNS_THROUGH_LOCK_CYCLES` times in all, each run again
 * counted in `sdapi_order_lock_cycle_retries_total`.
 */
export const runningThroughLockCycles = <T>(ctx: AppContext, work: () => Promise<T>) =>
  throughLockCycles(RUNS_THROUGH_LOCK_CYCLES, work, () => ctx.metrics.orderLockCycleRetries.inc());

/**
 * How many times a fulfilment runs when the database breaks a lock cycle by rolling it back.
 * On PostgreSQL the one statement locks the grant before its triggers add to the stock and
 * totals rows of its connection's shard, and the other paths lock those rows before the grant:
 * two connections whose shards coincide, ordering on one grant at once by the two paths, wait
 * on each other, and after a second (`deadlock_timeout`) the database rolls one back. Nothing
 * of it was written and its claim is still held, so it runs again (docs/checkout.md, "Lock
 * order").
 */
const RUNS_THROUGH_LOCK_CYCLES = 3;

async function writeOnce(ctx: AppContext, request: FulfilRequest): Promise<Fulfilment | 'unproven'> {
  const optimistic = await writeOptimistically(ctx, request);
  if (optimistic !== 'missed') return optimistic;
  return ctx.db.transaction().execute((trx) => fulfil(ctx, trx, request));
}

async function writeOptimistically(
  ctx: AppContext,
  request: FulfilRequest,
): Promise<Fulfilment | 'missed' | 'unproven'> {
  const pool = oneStatementPool(ctx.db, request);
  if (pool) {
    // The one statement proves a speculative quote's catalog version itself.
    const done = await onHotGrant(request.quote.allocation.id, () =>
      fulfilInOneStatement(ctx, ctx.db, request, pool),
    );
    if (done) return done;
    ctx.metrics.orderFastPathRetries.inc();
    return (await provenByReading(ctx, request)) ? 'missed' : 'unproven';
  }
  if (!(await provenByReading(ctx, request))) return 'unproven';
  const done = await inOwnTransaction(ctx.db, (trx) => fulfilEndingTransaction(ctx, trx, request));
  if (done) return done;
  ctx.metrics.orderFastPathRetries.inc();
  return 'missed';
}

/**
 * A speculative quote (`Quote.versionToProve`) stands for a transaction as a quote that read
 * the version first does, if the version read now is the one it was judged under.
 */
async function provenByReading(ctx: AppContext, request: FulfilRequest): Promise<boolean> {
  const version = request.quote.versionToProve;
  return version === null || (await catalogVersion(ctx)) === version;
}
