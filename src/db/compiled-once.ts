import {
  type Compilable,
  CompiledQuery,
  type Kysely,
  PostgresAdapter,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { Database, Executor } from './database.js';
import { markLastOfTransaction } from './pipelined-transaction.js';
import { prepareByName } from './prepared-names.js';
import { GroupCommitAdapter } from './sqlite-group-commit.js';

const MARK = '\u0000param:';

/**
 * A hot query of fixed shape, written once with Kysely and compiled once per engine with a marker
 * in place of each named value; each call then substitutes the values and runs the compiled SQL. No
 * query building or compiling per request; SQLite reuses its prepared statement (the statement
 * cache of database.ts) and PostgreSQL a named prepared statement of each connection (parse and
 * plan once). Every value the query varies on must be one of `names`: anything else is a constant
 * of the compiled text. `build` may return a query builder or a raw `sql` fragment (SQL that a
 * statement of another module composes too, such as the grant pull). `lastOfTransaction`
 * (PostgreSQL): the statement ends its transaction, which commits right behind it
 * (pipelined-transaction.ts).
 */
export function compiledOnce<N extends string, R>(
  names: readonly N[],
  build: (db: Kysely<Database>, values: Record<N, string>) => Compilable<R> | RawBuilder<R>,
  options: { lastOfTransaction?: boolean } = {},
): (ex: Executor, values: Record<N, unknown>) => Promise<QueryResult<R>> {
  const byEngine = new Map<boolean, { sql: string; slots: (N | { constant: unknown })[] }>();
  const compile = (ex: Executor, postgres: boolean) => {
    const markers = Object.fromEntries(names.map((n) => [n, `${MARK}${n}`])) as Record<N, string>;
    const built = build(ex as Kysely<Database>, markers);
    const compiled = isRawBuilder(built) ? built.compile(ex) : built.compile();
    const slots = compiled.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? (p.slice(MARK.length) as N) : { constant: p },
    );
    const entry = { sql: compiled.sql, slots };
    if (postgres) prepareByName(compiled.sql);
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

const isRawBuilder = <R>(built: Compilable<R> | RawBuilder<R>): built is RawBuilder<R> =>
  'isRawBuilder' in built && built.isRawBuilder === true;

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

type Values = Record<string, unknown>;
/** A row: a plain object whose every column is one parameter. Arrays and scalars are one each. */
const isRow = (value: unknown): value is Values =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const COLUMN = '\u0001';

/**
 * A hot PostgreSQL statement written with Kysely's `sql` tag (what the query builder cannot
 * say, e.g. several data-modifying CTEs), compiled once per shape like `compiledOnce` and run
 * as a named prepared statement of each connection. `build` gets a marker in place of every
 * value (a scalar or an array is one parameter, a row one per column) and must only place
 * them, never read them: what the text depends on is `shape` (JSON), which `build` gets as it
 * is, and the rows' columns. `lastOfTransaction` as in `compiledOnce`.
 *
 * `planEachTime`: an unnamed statement instead, which PostgreSQL plans again at each execution,
 * against the table's size at that moment (still a generic plan: database.ts forces those).
 * For a join of a batch with a table: a named statement's plan, chosen while the table was
 * small (a hash join over a scan of all of it), is kept as the table grows until the table is
 * analyzed (seen: 0.4 ms per batch of idempotency replies growing past 1.7 ms within seconds,
 * on a table written thousands of times a second; planned each time, 0.13 ms).
 */
export function preparedPerShape<S, V extends object, R>(
  build: (shape: S, values: V, ex: Executor) => RawBuilder<R>,
  options: { lastOfTransaction?: boolean; planEachTime?: boolean } = {},
): (ex: Executor, shape: S, values: V) => Promise<QueryResult<R>> {
  type Slot = { name: string; column: string | null } | { constant: unknown };
  const byShape = new Map<string, { sql: string; slots: Slot[] }>();
  const compile = (ex: Executor, shape: S, values: V) => {
    const markers: Values = {};
    for (const [name, value] of Object.entries(values)) {
      markers[name] = isRow(value)
        ? Object.fromEntries(Object.keys(value).map((c) => [c, `${MARK}${name}${COLUMN}${c}`]))
        : `${MARK}${name}`;
    }
    const compiled = build(shape, markers as V, ex).compile(ex);
    const slots = compiled.parameters.map((p): Slot => {
      if (typeof p !== 'string' || !p.startsWith(MARK)) return { constant: p };
      const [name, column] = p.slice(MARK.length).split(COLUMN) as [string, string | undefined];
      return { name, column: column ?? null };
    });
    if (!options.planEachTime) prepareByName(compiled.sql);
    if (options.lastOfTransaction) markLastOfTransaction(compiled.sql);
    return { sql: compiled.sql, slots };
  };
  return (ex, shape, values) => {
    let key = JSON.stringify(shape);
    for (const [name, value] of Object.entries(values)) {
      if (isRow(value)) key += `|${name}:${Object.keys(value).join(',')}`;
    }
    let entry = byShape.get(key);
    if (!entry) {
      entry = compile(ex, shape, values);
      byShape.set(key, entry);
    }
    const parameters = entry.slots.map((slot) => {
      if ('constant' in slot) return slot.constant;
      const value = (values as Values)[slot.name];
      return slot.column === null ? value : (value as Values)[slot.column];
    });
    return ex.executeQuery<R>(CompiledQuery.raw(entry.sql, parameters));
  };
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
    if (postgres && count <= MAX_PREPARED_ROWS) prepareByName(compiled.sql);
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
