import type { Kysely } from 'kysely';
import { type Database, type Executor, isUniqueViolation } from './database.js';
import { isPostgres } from './dialect.js';

/**
 * Guarded writes: the order path's statements that decide as they write, and the transactions
 * they may end. The one place the order path's misses become values.
 *
 * A guarded statement that finds what it cannot decide (the grant moved since the quote read
 * it, the catalog moved since a quote judged on it, too few keys) calls `sdapi_require` (a
 * PostgreSQL function of ours), which raises SQLSTATE SDF01, and writes nothing; when it ends a
 * transaction, the COMMIT queued behind it is answered with ROLLBACK. `unlessMissed` turns that
 * error into `null` right where the statement runs, so that a miss travels up the order path as
 * a value, never as an exception. Every other error passes through unchanged.
 */
export async function unlessMissed<T>(statement: Promise<T>): Promise<T | null> {
  try {
    return await statement;
  } catch (err) {
    if ((err as { code?: string } | null)?.code === 'SDF01') return null;
    throw err;
  }
}

/**
 * Whether writes here are guarded statements (PostgreSQL), which can prove what a quote read
 * as they write (for example a catalog version the quote was judged on without reading it,
 * `Quote.versionToProve`). Elsewhere proving it costs the same read, made later.
 */
export const writesProveReads = (db: Executor) => isPostgres(db);

const ownTransactions = new WeakSet<object>();

/**
 * Runs `work` as the whole of a transaction of its own. On PostgreSQL its last statement may
 * then end the transaction (`lastStatementEnds`): a statement compiled with `lastOfTransaction`
 * has its COMMIT queued right behind it (pipelined-transaction.ts). Work run inside someone
 * else's transaction never ends it.
 */
export function inOwnTransaction<T>(db: Kysely<Database>, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.transaction().execute((trx) => {
    ownTransactions.add(trx);
    return work(trx);
  });
}

/**
 * Whether a statement compiled with `lastOfTransaction` may end `trx`: a transaction of
 * `inOwnTransaction` on PostgreSQL. (SQLite has no such statement: its group commit ends
 * transactions.)
 */
export const lastStatementEnds = (trx: Executor) => ownTransactions.has(trx) && isPostgres(trx);

/** What `rollBackWith` wraps: the outcome a transaction's work ends in instead of a commit. */
class RolledBack<V> {
  constructor(readonly outcome: V) {}
}

/**
 * Ends a transaction of `transactionOrOutcome` in `outcome` instead of a commit: everything
 * the work wrote is rolled back (keys it claimed go back to their pool), and `outcome` is the
 * transaction's answer.
 */
export const rollBackWith = <V>(outcome: V) => new RolledBack(outcome);

/**
 * Runs `work` in a transaction on `db` that either commits, answering what `work` returns, or
 * rolls back, answering the outcome `work` ended it with (`rollBackWith`). The one place an
 * outcome that undoes a transaction's writes becomes a value.
 */
export async function transactionOrOutcome<T, V>(
  db: Executor,
  work: (trx: Executor) => Promise<T | RolledBack<V>>,
): Promise<T | V> {
  try {
    return await db.transaction().execute(async (trx) => {
      const done = await work(trx);
      if (done instanceof RolledBack) throw done;
      return done;
    });
  } catch (err) {
    if (err instanceof RolledBack) return err.outcome as V;
    throw err;
  }
}

/** A write a unique index refused: its transaction rolled back, nothing written. */
export class Duplicate {
  constructor(readonly error: unknown) {}
}

/**
 * Answers a write that a unique index refused (a concurrent request took the same key first)
 * as the value `Duplicate`, right where its transaction ended; every other error passes through.
 */
export async function unlessDuplicate<T>(write: Promise<T>): Promise<T | Duplicate> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) return new Duplicate(err);
    throw err;
  }
}
