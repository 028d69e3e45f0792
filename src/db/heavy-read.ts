import type { CompiledQuery } from 'kysely';
import type { Executor } from './database.js';
import { GroupCommitAdapter } from './sqlite-group-commit.js';

/** A Kysely select, as the repositories build it. */
export interface ReadQuery<R> {
  compile(): CompiledQuery<R>;
  execute(): Promise<R[]>;
}

/**
 * A seller read that can take more than a few milliseconds (a list page, a CSV page, a
 * statement's totals). On a SQLite file database, outside a transaction, it runs on the reader
 * thread (sqlite-reader.ts) so that the event loop keeps serving orders meanwhile; anywhere
 * else (PostgreSQL, an in-memory database, inside a transaction, a reader thread that could not
 * open the file) it runs as before.
 */
export async function heavyRead<R>(ex: Executor, query: ReadQuery<R>): Promise<R[]> {
  const adapter = ex.getExecutor().adapter;
  const reader = !ex.isTransaction && adapter instanceof GroupCommitAdapter ? adapter.driver.offThread : null;
  if (reader?.usable) {
    const compiled = query.compile();
    try {
      return await reader.all<R>(compiled.sql, compiled.parameters);
    } catch (err) {
      // The thread is gone (it could not open the file, or stopped): read on the main connection.
      if (reader.usable) throw err;
    }
  }
  return query.execute();
}
