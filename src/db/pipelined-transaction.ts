import type pg from 'pg';

/**
 * PostgreSQL: a transaction's BEGIN queued in front of its first statement, and a registered
 * last statement with its COMMIT queued right behind it: neither costs the app a round trip.
 *
 * BEGIN answers at once and is sent with the first statement (the driver sends that statement
 * the moment BEGIN's reply arrives); the statement's promise settles after both, and fails
 * with BEGIN's error if BEGIN failed (a broken connection, which fails the statement too).
 *
 * A last statement, registered here (compiledOnce's `lastOfTransaction`), is sent as usual and the
 * COMMIT is queued on the same connection at once, so the driver sends it the moment the
 * statement's reply arrives, in the same turn of the event loop: the row locks the statement
 * took are held for the statement and the commit, never while the reply waits for the app to
 * get to it behind other requests (docs/checkout.md). When the statement fails, PostgreSQL
 * answers the queued COMMIT with ROLLBACK.
 *
 * The transaction's own `commit` (or `rollback`, after the statement failed) then answers with
 * the queued COMMIT's result. The caller must send nothing after the statement: a rollback
 * asked for after a statement that succeeded is refused loudly, since its work is committed.
 */
const lastStatements = new Set<string>();

export const markLastOfTransaction = (sql: string) => void lastStatements.add(sql);

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;

const BEGUN = { command: 'BEGIN', rowCount: null, rows: [], fields: [], oid: 0 } as unknown as pg.QueryResult;

export function pipelineTransactions(query: Query): Query {
  let queuedBegin: Promise<pg.QueryResult> | null = null;
  let queuedCommit: Promise<pg.QueryResult> | null = null;
  const afterBegin = (result: Promise<pg.QueryResult>) => {
    if (!queuedBegin) return result;
    const begin = queuedBegin;
    queuedBegin = null;
    result.catch(() => undefined);
    return begin.then(() => result);
  };
  return (text, ...rest) => {
    if (text === 'begin') {
      queuedBegin = query(text, ...rest);
      queuedBegin.catch(() => undefined);
      return Promise.resolve(BEGUN);
    }
    if (queuedCommit && (text === 'commit' || text === 'rollback')) {
      const commit = queuedCommit;
      queuedCommit = null;
      if (text === 'commit') return commit;
      return commit.then((result) => {
        if (result.command === 'COMMIT') {
          throw new Error('rollback asked for after the last statement of the transaction committed');
        }
        return result;
      });
    }
    const result = afterBegin(query(text, ...rest));
    const sql = typeof text === 'string' ? text : (text as { text?: string }).text;
    if (sql !== undefined && lastStatements.has(sql)) {
      queuedCommit = query('commit');
      queuedCommit.catch(() => undefined);
      // A statement that fails leaves the queued COMMIT to answer ROLLBACK; nothing to do here.
      result.catch(() => undefined);
    }
    return result;
  };
}
