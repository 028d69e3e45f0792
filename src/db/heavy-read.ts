import type { CompiledQuery } from 'kysely';
import type { Executor } from './database.js';
import type { FormattedRows } from './database-thread.js';
import { pgReaderOf } from './pg-reader.js';
import { GroupCommitAdapter } from './sqlite-group-commit.js';
import type { SqliteReader } from './sqlite-reader.js';
import { isTransientStoreError } from './transient-errors.js';

/** A Kysely select, as the repositories build it. */
export interface ReadQuery<R> {
  compile(): CompiledQuery<R>;
  execute(): Promise<R[]>;
}

/**
 * `onThread` with the reader thread and the compiled query when `ex` may use the thread;
 * `here` otherwise, or when the thread is gone (it could not open the file, or stopped).
 */
function sqliteReaderOf(ex: Executor): SqliteReader | null {
  const adapter = ex.getExecutor().adapter;
  return !ex.isTransaction && adapter instanceof GroupCommitAdapter ? adapter.driver.offThread : null;
}

async function offThreadOr<R, T>(
  ex: Executor,
  query: ReadQuery<R>,
  onThread: (reader: SqliteReader, compiled: CompiledQuery<R>) => Promise<T>,
  here: () => Promise<T>,
): Promise<T> {
  const reader = sqliteReaderOf(ex);
  if (reader?.usable) {
    try {
      return await onThread(reader, query.compile());
    } catch (err) {
      if (reader.usable) throw err;
    }
  }
  return here();
}

/**
 * A seller read that can take more than a few milliseconds (a list page, a CSV page, a
 * statement's totals). On a SQLite file database, outside a transaction, it runs on the reader
 * thread (sqlite-reader.ts) so that the event loop keeps serving orders meanwhile; anywhere
 * else (PostgreSQL, an in-memory database, inside a transaction, a reader thread that could not
 * open the file) it runs as before.
 */
export function heavyRead<R>(ex: Executor, query: ReadQuery<R>): Promise<R[]> {
  return offThreadOr(
    ex,
    query,
    (reader, compiled) => reader.all<R>(compiled.sql, compiled.parameters),
    () => query.execute(),
  );
}

/**
 * A plain JavaScript module (`.mjs`, so that the reader thread can import it without a
 * TypeScript loader) whose `formatRows` turns a batch of rows into text: `url` is its file URL,
 * `formatRows` the same function imported here.
 */
export interface RowFormatter<R> {
  url: string;
  formatRows(rows: readonly R[]): string;
}

/**
 * A heavy read whose rows leave as text (a CSV page). On a reader thread (SQLite's, or the
 * PostgreSQL reader of the primary or replica `ex` is: pg-reader.ts) both the statement and the
 * formatting run there, and the event loop receives the bytes; anywhere else, both run here as
 * `heavyRead` would. On PostgreSQL a statement the thread's connection could not run for a
 * while (a lost replica, a conflict with replay) runs again here, where the replica's executor
 * falls back to the primary (replica-driver.ts). An abort of `signal` stops the thread's
 * statement.
 */
export async function heavyFormatted<R>(
  ex: Executor,
  query: ReadQuery<R>,
  formatter: RowFormatter<R>,
  signal?: AbortSignal,
): Promise<FormattedRows<R>> {
  const here = async () => {
    const rows = await query.execute();
    return { bytes: Buffer.from(formatter.formatRows(rows)), count: rows.length, last: rows.at(-1) };
  };
  const pgReader = pgReaderOf(ex);
  if (pgReader?.usable) {
    const compiled = query.compile();
    try {
      return await pgReader.formatted<R>(compiled.sql, compiled.parameters, formatter.url, signal);
    } catch (err) {
      if (signal?.aborted || (pgReader.usable && !isTransientStoreError(err))) throw err;
    }
    return here();
  }
  return offThreadOr(
    ex,
    query,
    (reader, compiled) => reader.formatted<R>(compiled.sql, compiled.parameters, formatter.url),
    here,
  );
}
