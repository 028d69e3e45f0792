import type SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';

// The pieces of the SQLite group-commit driver (sqlite-group-commit.ts): its leases, groups and
// statement runner.

/** What `runNow` needs of a Kysely instance or transaction. */
export interface Executor {
  isTransaction: boolean;
  getExecutor(): {
    provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T>;
  };
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/** Statements that cannot run inside a transaction (or end one): the open group commits first. */
export const OUTSIDE_TRANSACTIONS =
  /^\s*(pragma|vacuum|attach|detach|begin|commit|end|rollback|savepoint|release)\b/i;

export type Prepare = (sql: string) => SqliteDatabase.Statement;

export interface Group {
  members: number;
  openedAt: number;
  /** Why the group ended without committing, once it did. */
  failure?: unknown;
  /** Settles with the group's COMMIT: resolves when it committed, rejects with why it did not. */
  settled: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

export interface GroupCommitStats {
  /** Physical transactions committed, and the logical transactions (members) they carried. */
  groups: number;
  members: number;
}

/** What a lease needs of the driver. */
export interface LeaseDriver {
  execute(lease: Lease, query: CompiledQuery): Promise<QueryResult<unknown>>;
  stream(lease: Lease, query: CompiledQuery): AsyncIterableIterator<QueryResult<unknown>>;
}

/** One use of the database by Kysely: a transaction, a statement, or a connection() block. */
export class Lease implements DatabaseConnection {
  /** Whether it holds the writer. */
  holds = false;
  /** The group this lease is a member of, between its BEGIN and its COMMIT or ROLLBACK. */
  group: Group | null = null;
  /** Whether its transaction runs in a savepoint (every member but a group's first). */
  savepoint = false;
  constructor(private readonly driver: LeaseDriver) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }
  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream(this, query) as AsyncIterableIterator<QueryResult<R>>;
  }
}

export function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const settled = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  settled.catch(() => undefined);
  return { members: 0, openedAt: performance.now(), settled, resolve, reject };
}

export function run(
  statement: SqliteDatabase.Statement,
  query: Pick<CompiledQuery, 'parameters'>,
): QueryResult<unknown> {
  const parameters = query.parameters as unknown[];
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
