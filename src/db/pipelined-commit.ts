import type pg from 'pg';

/**
 * PostgreSQL: a transaction's last statement with its COMMIT queued right behind it.
 *
 * A statement registered here (compiledOnce's `lastOfTransaction`) is sent as usual and the
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

export function queueCommitsBehindLastStatements(query: Query): Query {
  let queuedCommit: Promise<pg.QueryResult> | null = null;
  return (text, ...rest) => {
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
    const result = query(text, ...rest);
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
