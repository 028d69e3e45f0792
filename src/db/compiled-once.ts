import {
  type Compilable,
  CompiledQuery,
  type Kysely,
  PostgresAdapter,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { Executor } from './database.js';
import { markLastOfTransaction } from './pipelined-transaction.js';
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
 * which commits right behind it (pipelined-transaction.ts).
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
    return runCompiled<R>(ex, adapter, sql, parameters);
  };
}

function runCompiled<R>(
  ex: Executor,
  adapter: unknown,
  sql: string,
  parameters: unknown[],
): Promise<QueryResult<R>> {
  if (adapter instanceof GroupCommitAdapter) {
    // SQLite: run at once where the driver can (sqlite-group-commit.ts `runNow`).
    const now = adapter.driver.runNow(ex, sql, parameters);
    if (now) return now as Promise<QueryResult<R>>;
  }
  return ex.executeQuery<R>(CompiledQuery.raw(sql, parameters));
}

/**
 * A hot PostgreSQL statement of fixed shape written with Kysely's `sql` tag (what the query
 * builder cannot say, e.g. several data-modifying CTEs), run as a named prepared statement of
 * each connection like the compiled-once queries. Its text must not vary with the values it is
 * given: every value a parameter. `lastOfTransaction` as in `compiledOnce`.
 */
export function runPrepared<R>(
  ex: Executor,
  query: RawBuilder<R>,
  options: { lastOfTransaction?: boolean } = {},
): Promise<QueryResult<R>> {
  const compiled = query.compile(ex);
  if (!preparedNames.has(compiled.sql)) {
    preparedNames.set(compiled.sql, `hot_${preparedNames.size + 1}`);
    if (options.lastOfTransaction) markLastOfTransaction(compiled.sql);
  }
  return ex.executeQuery<R>(compiled);
}

type Table = keyof Database & string;
const MAX_PREPARED_ROWS = 8;
// biome-ignore lint/suspicious/noExplicitAny: rows of any table
type Row = Record<string, any>;

/**
 * An insert of rows into `table`, compiled once per shape (the columns the rows give, in
 * order, and how many rows) like `compiledOnce`: no query building per request. Columns whose
 * value is undefined are left out, as Kysely's `values` leaves them out. Every row of one call
 * must give the same columns.
 */
export function insertOnce<T extends Table>(table: T) {
  type Slot = { row: number; column: string } | { constant: unknown };
  const byShape = new Map<string, { sql: string; slots: Slot[] }>();
  const compile = (ex: Executor, postgres: boolean, columns: string[], count: number) => {
    const marker = (row: number, column: string) => `${MARK}${row}:${column}`;
    const values = Array.from({ length: count }, (_, row) =>
      Object.fromEntries(columns.map((c) => [c, marker(row, c)])),
    );
    // biome-ignore lint/suspicious/noExplicitAny: the table's rows are checked by the callers' types
    const compiled = (ex as Kysely<any>).insertInto(table).values(values).compile();
    const slots = compiled.parameters.map((p): Slot => {
      if (typeof p !== 'string' || !p.startsWith(MARK)) return { constant: p };
      const [row, column] = p.slice(MARK.length).split(/:(.*)/s) as [string, string];
      return { row: Number(row), column };
    });
    // Prepared per connection only for the few-row shapes of hot paths: a fan-out to many
    // recipients is a one-off shape not worth a prepared statement on every connection.
    if (postgres && count <= MAX_PREPARED_ROWS)
      preparedNames.set(compiled.sql, `hot_${preparedNames.size + 1}`);
    return { sql: compiled.sql, slots };
  };
  return (ex: Executor, rows: readonly Row[]): Promise<QueryResult<unknown>> => {
    const adapter = ex.getExecutor().adapter;
    const postgres = adapter instanceof PostgresAdapter;
    const first = rows[0]!;
    const columns = Object.keys(first).filter((c) => first[c] !== undefined);
    const shape = `${postgres}:${rows.length}:${columns.join(',')}`;
    let entry = byShape.get(shape);
    if (!entry) {
      entry = compile(ex, postgres, columns, rows.length);
      byShape.set(shape, entry);
    }
    const parameters = entry.slots.map((slot) =>
      'row' in slot ? rows[slot.row]![slot.column] : slot.constant,
    );
    return runCompiled(ex, adapter, entry.sql, parameters);
  };
}
