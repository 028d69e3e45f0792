import type { DatabaseConfig } from '../config.js';
import { type Db, onSessionConnection } from './database.js';
import { isPostgres } from './dialect.js';
import { releaseSessionLock, tryTakeSessionLock } from './session-locks.pg.js';

/**
 * Runs `work` unless another process already runs work under the same `name`; then answers
 * `whenTaken` at once. On PostgreSQL a session advisory lock, held on a session connection
 * (DATABASE_DIRECT_URL's when behind a pooler) while `work` runs its transactions on the pool,
 * released when it ends or by the server if the process dies; a transaction-scoped lock would
 * hold one transaction open for the whole of `work`. SQLite is one process with one writer.
 */
export async function unlessRunningElsewhere<T>(
  db: Db,
  config: DatabaseConfig,
  name: string,
  whenTaken: T,
  work: () => Promise<T>,
): Promise<T> {
  if (!isPostgres(db)) return work();
  return onSessionConnection(db, config, (session) =>
    session.connection().execute(async (conn) => {
      if (!(await tryTakeSessionLock(conn, name))) return whenTaken;
      try {
        return await work();
      } finally {
        await releaseSessionLock(conn, name);
      }
    }),
  );
}
