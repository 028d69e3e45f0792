import type SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, type Driver, type QueryResult, SqliteAdapter, SqliteDialect } from 'kysely';
import {
  type Executor,
  type Group,
  type GroupCommitStats,
  Lease,
  newGroup,
  OUTSIDE_TRANSACTIONS,
  type Prepare,
  run,
} from './sqlite-connection.js';
import type { SqliteReader } from './sqlite-reader.js';

/**
 * SQLite group commit (docs/checkout.md, "SQLite: group commit").
 *
 * The process writes through one connection, and a commit costs the WAL write of every page
 * the transaction dirtied: the largest part of an order's SQLite time. Concurrent transactions
 * therefore share one physical transaction: the first opens it (`BEGIN IMMEDIATE`), each
 * logical transaction runs in a savepoint of its own (`SAVEPOINT` / `RELEASE`, or `ROLLBACK TO`
 * on failure), and one `COMMIT` ends the group once the writer is idle at the end of the event
 * loop's turn (`setImmediate`: the requests that arrived together commit together), or at the
 * next hand-over once the group reached its bound. Pages several members touch (the hot
 * allocation, the tails of the order, sale and outbox indexes) are written once per group.
 *
 * Nothing of a group is reported before its COMMIT. A member's transaction resolves (or rejects
 * with its own error, which may rest on what earlier members wrote) only after the shared
 * COMMIT. A read outside any transaction runs on a second, read-only connection (WAL: it sees
 * the last commit, never an open group), so it neither waits nor sees uncommitted writes; an
 * in-memory database has no second connection, and there a statement run outside any
 * transaction while a group is open (a read or a write) answers after the COMMIT too, as does
 * a write outside transactions on a file. When the COMMIT fails, or SQLite rolls the whole
 * transaction back after an error, every member and every such statement fails with that
 * error: nothing the group did is reported as done, nothing it read as read.
 *
 * The writer is taken when a transaction begins or a statement needs it, first come first
 * served, and handed on as soon as the member finished, not when its group commits.
 */

/** A group commits at its next hand-over once it has this many members or is this old. */
export const GROUP_MAX_MEMBERS = 64;
export const GROUP_MAX_AGE_MS = 20;

export class GroupCommitDriver implements Driver {
  readonly stats: GroupCommitStats = { groups: 0, members: 0 };
  #holder: Lease | null = null;
  #waiters: (() => void)[] = [];
  #group: Group | null = null;
  #commitScheduled = false;
  /** The lease of each transaction's executor, for `runNow`. */
  #leases = new WeakMap<object, Lease>();
  /** The reader thread of a file database (sqlite-reader.ts, heavy-read.ts), closed with the driver. */
  offThread: SqliteReader | null = null;

  constructor(
    private readonly writer: SqliteDatabase.Database,
    private readonly prepare: Prepare,
    /** The read-only connection (file databases), and its statement cache. */
    private readonly reader: { db: SqliteDatabase.Database; prepare: Prepare } | null,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<Lease> {
    return new Lease(this);
  }

  async releaseConnection(lease: Lease): Promise<void> {
    this.#release(lease);
  }

  async beginTransaction(lease: Lease): Promise<void> {
    await this.#hold(lease);
    if (this.#group && this.#isFull(this.#group)) this.#commitGroup();
    // The first member opens the group and needs no savepoint: until it ends, the physical
    // transaction holds nothing else, and its rollback is the transaction's. A savepoint makes
    // SQLite keep the original of every page it changes (the sub-journal), which a large
    // first member (a key import batch) would pay for in memory.
    if (this.#group) {
      this.#exec('savepoint member');
      lease.savepoint = true;
    } else {
      this.#exec('begin immediate');
      this.#group = newGroup();
      lease.savepoint = false;
    }
    lease.group = this.#group;
  }

  async commitTransaction(lease: Lease): Promise<void> {
    const group = this.#memberGroup(lease);
    // A failed RELEASE leaves the lease a member: Kysely then rolls it back.
    if (lease.savepoint) this.#guard(() => this.#exec('release member'));
    lease.group = null;
    group.members++;
    this.#release(lease);
    return group.settled;
  }

  async rollbackTransaction(lease: Lease): Promise<void> {
    const group = lease.group;
    if (!group) return; // its commit already failed with the group
    lease.group = null;
    if (group === this.#group && !lease.savepoint) {
      // The group's first member, still its only one: its rollback ends the group.
      this.#group = null;
      try {
        this.#exec('rollback');
      } catch {
        // The connection is past saving the transaction; the next BEGIN reports it.
      }
      group.resolve();
    } else if (group === this.#group) {
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
    if (lease.group) return this.#guard(() => run(this.#memberStatement(lease, query.sql), query));
    const alone = OUTSIDE_TRANSACTIONS.test(query.sql);
    if (this.reader && !alone && this.prepare(query.sql).readonly) {
      return run(this.reader.prepare(query.sql), query);
    }
    await this.#hold(lease);
    if (this.#group && alone) this.#commitGroup();
    const group = this.#group;
    if (!group) return this.#guard(() => run(this.prepare(query.sql), query));
    let result: QueryResult<unknown> | undefined;
    let failure: unknown;
    try {
      result = this.#guard(() => run(this.prepare(query.sql), query));
    } catch (err) {
      failure = err;
    }
    this.#release(lease);
    await group.settled;
    if (failure !== undefined) throw failure;
    return result!;
  }

  /**
   * A compiled-once statement (compiled-once.ts) run at once, without Kysely's asynchronous
   * round per statement: a read outside transactions on the reader; in a transaction, on the
   * writer, once the transaction's lease is known (asked of Kysely at its first such statement)
   * and while that lease is the member holding the writer. Undefined when it must take Kysely's
   * path (a write outside transactions, a transaction that ended).
   */
  runNow(
    ex: Executor,
    sql: string,
    parameters: readonly unknown[],
  ): Promise<QueryResult<unknown>> | undefined {
    try {
      if (!ex.isTransaction) {
        if (!this.reader || OUTSIDE_TRANSACTIONS.test(sql) || !this.prepare(sql).readonly) return undefined;
        return Promise.resolve(run(this.reader.prepare(sql), { parameters }));
      }
      const executor = ex.getExecutor();
      const lease = this.#leases.get(executor);
      if (!lease) {
        return executor
          .provideConnection(async (connection) => void this.#leases.set(executor, connection as Lease))
          .then(
            () =>
              this.runNow(ex, sql, parameters) ?? ex.executeQuery(CompiledQuery.raw(sql, [...parameters])),
          );
      }
      if (lease !== this.#holder || !lease.group) return undefined;
      return Promise.resolve(this.#guard(() => run(this.#memberStatement(lease, sql), { parameters })));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  async *stream(lease: Lease, query: CompiledQuery): AsyncIterableIterator<QueryResult<unknown>> {
    if (!lease.group) {
      await this.#hold(lease);
      if (this.#group) this.#commitGroup();
    }
    const statement = this.#memberStatement(lease, query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row] };
  }

  async destroy(): Promise<void> {
    await this.offThread?.close();
    if (this.#group && !this.#holder) this.#commitGroup();
    this.reader?.db.close();
    this.writer.close();
  }

  #memberStatement(lease: Lease, sql: string) {
    if (lease.group) this.#memberGroup(lease);
    return this.prepare(sql);
  }

  #exec(sql: string) {
    this.prepare(sql).run();
  }

  /** Runs `work`; an error after which SQLite has rolled the whole transaction back loses the group. */
  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      if (this.#group && !this.writer.inTransaction) this.#loseGroup(err);
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
    try {
      this.#exec('commit');
    } catch (err) {
      this.#abandonGroup(err);
      return;
    }
    this.#group = null;
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
      if (this.writer.inTransaction) this.#exec('rollback');
    } catch {
      // The connection is past saving the transaction; the next BEGIN reports it.
    }
    this.#loseGroup(err);
  }

  #hold(lease: Lease): Promise<void> | undefined {
    if (lease.holds) return undefined;
    if (!this.#holder) {
      this.#holder = lease;
      lease.holds = true;
      return undefined;
    }
    return new Promise((resolve) =>
      this.#waiters.push(() => {
        this.#holder = lease;
        lease.holds = true;
        resolve();
      }),
    );
  }

  #release(lease: Lease) {
    if (!lease.holds) return;
    lease.holds = false;
    this.#holder = null;
    const next = this.#waiters.shift();
    if (this.#group && this.#isFull(this.#group)) this.#commitGroup();
    else if (this.#group && !next) this.#scheduleCommit();
    next?.();
  }

  /** The writer is idle: the group commits at the end of this turn of the event loop, if still idle. */
  #scheduleCommit() {
    if (this.#commitScheduled) return;
    this.#commitScheduled = true;
    setImmediate(() => {
      this.#commitScheduled = false;
      if (this.#group && !this.#holder && this.writer.open) this.#commitGroup();
    });
  }
}

/** The dialect's adapter, through which compiled-once statements find the driver to run on. */
export class GroupCommitAdapter extends SqliteAdapter {
  constructor(readonly driver: GroupCommitDriver) {
    super();
  }
}

/** Kysely's SQLite dialect with the group-committing driver in place of its own. */
export class GroupCommitSqliteDialect extends SqliteDialect {
  readonly driver: GroupCommitDriver;
  constructor(...args: ConstructorParameters<typeof GroupCommitDriver>) {
    super({ database: args[0] });
    this.driver = new GroupCommitDriver(...args);
  }
  override createDriver(): Driver {
    return this.driver;
  }
  override createAdapter(): GroupCommitAdapter {
    return new GroupCommitAdapter(this.driver);
  }
}
