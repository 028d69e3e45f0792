import type SqliteDatabase from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
} from 'kysely';

/**
 * SQLite group commit (docs/checkout.md, "SQLite: group commit").
 *
 * The process has one connection, and a commit costs the WAL write of every page the
 * transaction dirtied: most of an order's SQLite time. Concurrent transactions therefore share
 * one physical transaction: the first opens it (`BEGIN IMMEDIATE`), each logical transaction
 * runs in a savepoint of its own (`SAVEPOINT` / `RELEASE`, or `ROLLBACK TO` on failure), and
 * one `COMMIT` ends the group when the connection would otherwise go idle (no one is waiting
 * for it) or the group reached its bound. Pages several members touch (the hot allocation,
 * the tails of the order, sale and outbox indexes) are written once per group.
 *
 * Nothing of the group is reported before its COMMIT: a member's transaction resolves (or
 * rejects with its own error) only after the shared COMMIT; a statement run outside any member
 * while a group is open (a plain read or write) saw the group's uncommitted writes, so its
 * result waits for the COMMIT too. When the COMMIT fails, or SQLite rolls the whole
 * transaction back after an error, every member and every such statement fails with that
 * error: nothing the group did is reported as done, and nothing it read is reported as read.
 *
 * Waiting does not hold the connection: a member that released its savepoint, or a statement
 * whose result waits, hands the connection to the next waiter (first come, first served), so
 * the group grows while work is queued and commits as soon as it is not.
 */

/** A group commits at its next hand-over once it has this many members or is this old. */
export const GROUP_MAX_MEMBERS = 32;
export const GROUP_MAX_AGE_MS = 20;

/** Statements that cannot run inside a transaction (or end one): the open group commits first. */
const OUTSIDE_TRANSACTIONS =
  /^\s*(pragma|vacuum|attach|detach|begin|commit|end|rollback|savepoint|release)\b/i;

interface Group {
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
  /** Physical transactions committed, and logical transactions (members) they carried. */
  groups: number;
  members: number;
}

/** One use of the connection: from acquire to release (or to a hand-over while it waits). */
class Lease implements DatabaseConnection {
  released = false;
  /** The group this lease is a member of, between its BEGIN and its COMMIT or ROLLBACK. */
  group: Group | null = null;
  constructor(private readonly driver: GroupCommitDriver) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }
  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream(this, query) as AsyncIterableIterator<QueryResult<R>>;
  }
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const settled = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  settled.catch(() => undefined);
  return { members: 0, openedAt: performance.now(), settled, resolve, reject };
}

export class GroupCommitDriver implements Driver {
  readonly stats: GroupCommitStats = { groups: 0, members: 0 };
  #holder: Lease | null = null;
  #waiters: (() => void)[] = [];
  #group: Group | null = null;

  constructor(
    private readonly sqlite: SqliteDatabase.Database,
    private readonly prepare: (sql: string) => SqliteDatabase.Statement,
  ) {}

  async init(): Promise<void> {}

  acquireConnection(): Promise<Lease> {
    const lease = new Lease(this);
    return this.#lock(lease).then(() => lease);
  }

  async releaseConnection(lease: Lease): Promise<void> {
    this.#release(lease);
  }

  async beginTransaction(lease: Lease): Promise<void> {
    await this.#reacquire(lease);
    if (this.#group && this.#isFull(this.#group)) this.#commitGroup();
    if (!this.#group) {
      this.#exec('begin immediate');
      this.#group = newGroup();
    }
    this.#exec('savepoint member');
    lease.group = this.#group;
  }

  async commitTransaction(lease: Lease): Promise<void> {
    const group = this.#memberGroup(lease);
    // A failed RELEASE leaves the lease a member: Kysely then rolls it back.
    this.#guard(() => this.#exec('release member'));
    lease.group = null;
    group.members++;
    this.#release(lease);
    return group.settled;
  }

  async rollbackTransaction(lease: Lease): Promise<void> {
    const group = lease.group;
    if (!group) return; // its commit already failed with the group
    lease.group = null;
    if (group === this.#group) {
      try {
        this.#exec('rollback to member');
        this.#exec('release member');
      } catch (err) {
        // The member's writes could not be undone alone: none of the group may commit.
        this.#abandonGroup(err);
      }
    }
    this.#release(lease);
    // The refusal may rest on what earlier members wrote: it stands only if they commit.
    return group.settled;
  }

  async execute(lease: Lease, query: CompiledQuery): Promise<QueryResult<unknown>> {
    await this.#reacquire(lease);
    if (lease.group) this.#memberGroup(lease);
    const outside = !lease.group;
    if (outside && this.#group && OUTSIDE_TRANSACTIONS.test(query.sql)) this.#commitGroup();
    const group = outside ? this.#group : null;
    if (!group) return this.#guard(() => this.#run(query));
    let result: QueryResult<unknown> | undefined;
    let failure: unknown;
    try {
      result = this.#guard(() => this.#run(query));
    } catch (err) {
      failure = err;
    }
    this.#release(lease);
    await group.settled;
    if (failure !== undefined) throw failure;
    return result!;
  }

  async *stream(lease: Lease, query: CompiledQuery): AsyncIterableIterator<QueryResult<unknown>> {
    await this.#reacquire(lease);
    if (!lease.group && this.#group) this.#commitGroup();
    const statement = this.prepare(query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row] };
  }

  async destroy(): Promise<void> {
    if (this.#group && !this.#holder) this.#commitGroup();
    this.sqlite.close();
  }

  #run(query: CompiledQuery): QueryResult<unknown> {
    const statement = this.prepare(query.sql);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  #exec(sql: string) {
    this.prepare(sql).run();
  }

  /** Runs `work`; an error after which SQLite has rolled the whole transaction back loses the group. */
  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      if (this.#group && !this.sqlite.inTransaction) this.#loseGroup(err);
      throw err;
    }
  }

  /** The lease's group, still open: a member of a lost group gets the group's failure. */
  #memberGroup(lease: Lease): Group {
    const group = lease.group!;
    if (group !== this.#group) throw group.failure;
    return group;
  }

  #isFull(group: Group) {
    return group.members >= GROUP_MAX_MEMBERS || performance.now() - group.openedAt >= GROUP_MAX_AGE_MS;
  }

  #commitGroup() {
    const group = this.#group!;
    this.#group = null;
    try {
      this.#exec('commit');
    } catch (err) {
      this.#group = group;
      this.#abandonGroup(err);
      return;
    }
    this.stats.groups++;
    this.stats.members += group.members;
    group.resolve();
  }

  /** Ends the open group without committing it: every member and waiting statement gets `err`. */
  #loseGroup(err: unknown) {
    const group = this.#group!;
    this.#group = null;
    group.failure = err;
    group.reject(err);
  }

  #abandonGroup(err: unknown) {
    try {
      if (this.sqlite.inTransaction) this.#exec('rollback');
    } catch {
      // The connection is past saving the transaction; the next BEGIN reports it.
    }
    this.#loseGroup(err);
  }

  #lock(lease: Lease): Promise<void> {
    if (!this.#holder) {
      this.#holder = lease;
      lease.released = false;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.#waiters.push(() => {
        this.#holder = lease;
        lease.released = false;
        resolve();
      }),
    );
  }

  /** A lease handed over while it waited and then used again (a connection() block) queues anew. */
  #reacquire(lease: Lease): Promise<void> | undefined {
    return lease.released ? this.#lock(lease) : undefined;
  }

  #release(lease: Lease) {
    if (lease.released) return;
    lease.released = true;
    this.#holder = null;
    if (this.#group && (this.#waiters.length === 0 || this.#isFull(this.#group))) this.#commitGroup();
    this.#waiters.shift()?.();
  }
}

/** Kysely's SQLite dialect with the group-committing driver in place of its own. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly driver: GroupCommitDriver;
  constructor(sqlite: SqliteDatabase.Database, prepare: (sql: string) => SqliteDatabase.Statement) {
    super({ database: sqlite });
    this.driver = new GroupCommitDriver(sqlite, prepare);
  }
  override createDriver(): Driver {
    return this.driver;
  }
}
