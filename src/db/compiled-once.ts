import { type Compilable, CompiledQuery, type Kysely, PostgresAdapter, type QueryResult } from 'kysely';
import type { Executor } from './database.js';
import { markLastOfTransaction } from './pipelined-commit.js';
import type { Database } from './schema.js';
import { GroupCommitAdapter } from './sqlite-group-commit.js';

/** SQL texts of compiled-once queries: PostgreSQL runs them as named prepared statements. */
const preparedNames = new Map<string, string>();

/** The name of a compiled-once query's prepared statement on PostgreSQL, if it is one. */
export const preparedNameOf = (sql: string): string | undefined => preparedNames.get(sql);

const MARK = '\u0000param:';

/**
 * A hot query of fixed shape (DESIGN, second wave: "the hot path may leave Kysely"), written
 * once with Kysely and compiled once per engine with a marker in place of each named value;
 * each call then substitutes the values and runs the compiled SQL. No query building or
 * compiling per request; SQLite reuses its prepared statement (the statement cache of
 * database.ts) and PostgreSQL a named prepared statement of each connection (parse and plan
 * once). Every value the query varies on must be one of `names`: anything else is a constant
 * of the compiled text. `lastOfTransaction` (PostgreSQL): the statement ends its transaction,
 * which commits right behind it (pipelined-commit.ts).
 */
export function compiledOnce<N extends string, R>(
  names: readonly N[],
  build: (db: Kysely<Database>, values: Record<N, string>) => Compilable<R>,
  options: { lastOfTransaction?: boolean } = {},
): (ex: Executor, values: Record<N, unknown>) => Promise<QueryResult<R>> {
  const byEngine = new Map<boolean, { sql: string; slots: (N | { constant: unknown })[] }>();
  const compile = (ex: Executor, postgres: boolean) => {
    const markers = Object.fromEntries(names.map((n) => [n, `${MARK}${n}`])) as Record<N, string>;
    const compiled = build(ex as Kysely<Database>, markers).compile();
    const slots = compiled.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? (p.slice(MARK.length) as N) : { constant: p },
    );
    const entry = { sql: compiled.sql, slots };
    if (postgres) preparedNames.set(compiled.sql, `hot_${preparedNames.size + 1}`);
    if (postgres && options.lastOfTransaction) markLastOfTransaction(compiled.sql);
    byEngine.set(postgres, entry);
    return entry;
  };
  return (ex, values) => {
    const adapter = ex.getExecutor().adapter;
    const postgres = adapter instanceof PostgresAdapter;
    const { sql, slots } = byEngine.get(postgres) ?? compile(ex, postgres);
    const parameters = slots.map((slot) => (typeof slot === 'string' ? values[slot] : slot.constant));
    if (adapter instanceof GroupCommitAdapter) {
      // SQLite: run at once where the driver can (sqlite-group-commit.ts `runNow`).
      const now = adapter.driver.runNow(ex, sql, parameters);
      if (now) return now as Promise<QueryResult<R>>;
    }
    return ex.executeQuery<R>(CompiledQuery.raw(sql, parameters));
  };
}

/**
 * A hot PostgreSQL statement written in SQL (what the query builder cannot say, e.g. several
 * data-modifying CTEs), run as a named prepared statement of each connection like the
 * compiled-once queries; `lastOfTransaction` as in `compiledOnce`.
 */
export function postgresOnce<R>(
  text: string,
  options: { lastOfTransaction?: boolean } = {},
): (ex: Executor, parameters: readonly unknown[]) => Promise<QueryResult<R>> {
  preparedNames.set(text, `hot_${preparedNames.size + 1}`);
  if (options.lastOfTransaction) markLastOfTransaction(text);
  return (ex, parameters) => ex.executeQuery<R>(CompiledQuery.raw(text, [...parameters]));
}

type Table = keyof Database & string;
// biome-ignore lint/suspicious/noExplicitAny: rows of any table
type Row = Record<string, any>;

/**
 * An insert of rows into `table`, compiled once per shape (the columns the rows give, in
 * order, and how many rows) like `compiledOnce`: no query building per request. Columns whose
 * value is undefined are left out, as Kysely's `values` leaves them out. Every row of one call
 * must give the same columns.
 */
export function insertOnce<T extends Table>(table: T) {
  const byShape = new Map<string, ReturnType<typeof compiledOnce<string, unknown>>>();
  return (ex: Executor, rows: readonly Row[]): Promise<QueryResult<unknown>> => {
    const columns = Object.keys(rows[0]!).filter((c) => rows[0]![c] !== undefined);
    const shape = `${rows.length}:${columns.join(',')}`;
    let insert = byShape.get(shape);
    if (!insert) {
      const names = rows.flatMap((_, i) => columns.map((c) => `${i}.${c}`));
      insert = compiledOnce(names, (db, v) =>
        // biome-ignore lint/suspicious/noExplicitAny: the table's rows are checked by the callers' types
        (db as Kysely<any>)
          .insertInto(table)
          .values(rows.map((_, i) => Object.fromEntries(columns.map((c) => [c, v[`${i}.${c}`]])))),
      );
      byShape.set(shape, insert);
    }
    const values: Record<string, unknown> = {};
    rows.forEach((row, i) => {
      for (const c of columns) values[`${i}.${c}`] = row[c];
    });
    return insert(ex, values);
  };
}
