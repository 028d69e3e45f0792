import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { PoolUse } from '../observability/metrics.js';
import { IDLE_CONNECTION_MS } from './idle-connections.js';
import { attachPgReader, openPgReader } from './pg-reader.js';
import { pipelineTransactions } from './pipelined-transaction.js';
import { preparedNameOf } from './prepared-names.js';
import { startCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './sqlite-checkpointer.js';
import type { GroupCommitStats } from './sqlite-connection.js';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';
import { openSqliteReader } from './sqlite-reader.js';

export type Engine = 'sqlite' | 'postgres';
/**
 * Every table of the service, by name. Empty here: src/db sits below the modules and knows none
 * of their tables. The composition root (src/database-schema.ts) adds each module's tables by
 * declaration merging, so every `Db` in the program is typed with the whole schema.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging at the composition root
export interface Database {}

export type Db = Kysely<Database>;
/** Every repository function takes either the pool or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface DbHandle {
  db: Db;
  engine: Engine;
  /** Connection-pool use (PostgreSQL), read by the metrics at scrape time. */
  poolUse?: () => PoolUse;
  /** SQLite: physical commits and the logical transactions they carried (sqlite-group-commit.ts). */
  groupCommits?: () => GroupCommitStats;
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is opened (a SQLite process, such as
 * the CLI on embedded mode, never loads it). int8 (epoch ms, counters) comes back as JS numbers:
 * every value we store fits in 2^53.
 */
let pgDriver: typeof pg | undefined;
export function loadPg(): typeof pg {
  if (!pgDriver) {
    pgDriver = createRequire(import.meta.url)('pg') as typeof pg;
    pgDriver.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
  }
  return pgDriver;
}

const STATEMENT_CACHE_SIZE = 512;
/** How long a request waits for a PostgreSQL connection (a free one of the pool, or a new one) before it answers 503. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The failing query or connect already reports a lost connection to its caller. */
const ignoreLostConnection = () => {};

/**
 * Kysely prepares every query anew; SQLite's prepare (parse and plan) costs as much as a small
 * query runs. Statements are reused per SQL text (bounded: the oldest half is dropped when
 * full). Safe on the one connection: a statement finishes (`all`/`run`) before the next query,
 * and a streamed `iterate` holds the connection until it ends. Transactions group-commit
 * (sqlite-group-commit.ts).
 */
function statementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        for (const key of [...statements.keys()].slice(0, STATEMENT_CACHE_SIZE / 2)) statements.delete(key);
      }
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/**
 * Compiled-once queries (compiled-once.ts) run as named prepared statements of each
 * connection: PostgreSQL parses and plans them once per connection, not per request. Behind a
 * transaction pooler a connection of ours is a different server session at each transaction,
 * so every statement runs unnamed there. A transaction's registered last statement has its
 * COMMIT queued behind it either way (pipelined-transaction.ts).
 */
function prepareCompiledOnce(client: pg.PoolClient, pooled: boolean) {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  const named = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? preparedNameOf(text) : undefined;
    return name ? query({ name, text, values }, ...rest) : query(text, values, ...rest);
  };
  client.query = pipelineTransactions((pooled ? query : named) as never) as typeof client.query;
}

type PostgresConfig = Extract<DatabaseConfig, { engine: 'postgres' }>;

/** Where a session of our own is reached: the server itself, never through a transaction pooler. */
export const sessionUrlOf = (config: PostgresConfig): string => config.pooling?.directUrl ?? config.url;

/**
 * Runs `work` on a connection that keeps its session (LISTEN, session advisory locks such as
 * the migrator's): `db` itself unless DATABASE_DIRECT_URL names another address, else a
 * connection of its own there.
 */
export async function onSessionConnection<T>(
  db: Db,
  config: DatabaseConfig,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  if (config.engine !== 'postgres' || sessionUrlOf(config) === config.url) return work(db);
  return onOwnConnection(config, work);
}

/**
 * Runs `work` on a connection of its own, outside every pool (at DATABASE_DIRECT_URL's address
 * when it names one), closed afterwards: for work that must not wait for, or take, a connection
 * of the pool its caller may be holding one of.
 */
export async function onOwnConnection<T>(config: PostgresConfig, work: (db: Db) => Promise<T>): Promise<T> {
  // Sent without start-up options too when the service is pooled: the direct address may itself
  // be a session-pooled entry of the pooler, which refuses them.
  const own = openDatabase(
    { engine: 'postgres', url: sessionUrlOf(config), schema: config.schema, pooling: config.pooling },
    { poolSize: 1 },
  );
  try {
    return await work(own.db);
  } finally {
    await own.close();
  }
}

function connectSqlite(path: string, options: { readonly?: boolean } = {}) {
  const sqlite = new SqliteDatabase(path, options);
  if (!options.readonly) {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
  }
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -16384');
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}

export function openDatabase(config: DatabaseConfig, options: { poolSize?: number } = {}): DbHandle {
  if (config.engine === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    const writer = connectSqlite(config.path);
    // A file database also gets a read-only connection for reads outside transactions (WAL).
    const reader = writer.memory ? null : connectSqlite(config.path, { readonly: true });
    const dialect = new GroupCommitSqliteDialect(
      writer,
      statementCache(writer),
      reader && { db: reader, prepare: statementCache(reader) },
    );
    // Heavy seller reads run on a thread of their own (heavy-read.ts); an in-memory database
    // cannot be opened twice, so its reads stay on the one connection.
    if (reader) dialect.driver.offThread = openSqliteReader(config.path);
    const db = new Kysely<Database>({ dialect });
    const checkpointer = reader ? startCheckpointer(config.path) : null;
    if (checkpointer) writer.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
    return {
      db,
      engine: 'sqlite',
      groupCommits: () => ({ ...dialect.driver.stats }),
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }
  // Named prepared statements (the hot path's, compiled once) keep their generic plan: with
  // statistics PostgreSQL would otherwise plan the order's statement afresh at every bind
  // (docs/checkout.md). Unnamed statements are planned again at each execution (generic too).
  // A transaction pooler refuses start-up options and every statement is unnamed there, planned
  // at each execution whatever the mode: nothing is sent (docs/operations.md).
  const pooled = config.pooling?.pooler === 'transaction';
  const settings = ['-c plan_cache_mode=force_generic_plan'];
  if (config.schema) settings.push(`-c search_path=${config.schema}`);
  const pool = new (loadPg().Pool)({
    connectionString: config.url,
    max: options.poolSize ?? 20,
    ...(pooled ? {} : { options: settings.join(' ') }),
    // While the database is down, a request waits this long for a connection, then answers 503.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    keepAlive: true,
  });
  // A lost connection (a restart, a failover, a terminated backend) is an 'error' event of the
  // client, checked out or idle: without a listener it would end the process. The query it
  // interrupts fails (503 STORE_UNAVAILABLE) and the pool drops the client; new connections
  // are made when the database accepts them again.
  pool.on('error', ignoreLostConnection);
  pool.on('connect', (client) => {
    client.on('error', ignoreLostConnection);
    prepareCompiledOnce(client, pooled);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Heavy reads that end as text (the activity CSV) run on a thread with connections of its own
  // (pg-reader.ts); it starts at the first such read.
  const reader = openPgReader({
    url: config.url,
    options: pooled ? undefined : settings.join(' '),
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
  });
  attachPgReader(db, reader);
  return {
    db,
    engine: 'postgres',
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      await reader.close();
      await db.destroy();
    },
  };
}

/** Unique-constraint violation on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export const fromBool = (value: boolean | undefined): number => (value ? 1 : 0);
