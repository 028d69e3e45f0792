import type { CompiledQuery } from 'kysely';
import type { Executor } from './database.js';
import { GroupCommitAdapter } from './sqlite-group-commit.js';
import type { FormattedRows, SqliteReader } from './sqlite-reader.js';

/** A Kysely select, as the repositories build it. */
export interface ReadQuery<R> {
  compile(): CompiledQuery<R>;
  execute(): Promise<R[]>;
}

/**
 * `onThread` with the reader thread and the compiled query when `ex` may use the thread;
 * `here` otherwise, or when the thread is gone (it could not open the file, or stopped).
 */
async function offThreadOr<R, T>(
  ex: Executor,
  query: ReadQuery<R>,
  onThread: (reader: SqliteReader, compiled: CompiledQuery<R>) => Promise<T>,
  here: () => Promise<T>,
): Promise<T> {
  const adapter = ex.getExecutor().adapter;
  const reader = !ex.isTransaction && adapter instanceof GroupCommitAdapter ? adapter.driver.offThread : null;
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
 * A heavy read whose rows leave as text (a CSV page): on the reader thread both the statement
 * and the formatting run there, and the event loop receives the bytes; anywhere else, both run
 * here as `heavyRead` would.
 */
export function heavyFormatted<R>(
  ex: Executor,
  query: ReadQuery<R>,
  formatter: RowFormatter<R>,
): Promise<FormattedRows<R>> {
  return offThreadOr(
    ex,
    query,
    (reader, compiled) => reader.formatted<R>(compiled.sql, compiled.parameters, formatter.url),
    async () => {
      const rows = await query.execute();
      return { bytes: Buffer.from(formatter.formatRows(rows)), count: rows.length, last: rows.at(-1) };
    },
  );
}
