import { createRequire } from 'node:module';
import { type FormattedRows, openDatabaseThread, THREAD_HELPERS } from './database-thread.js';
import { IDLE_CONNECTION_MS } from './idle-connections.js';

/** Connections of the reader thread: as many exports stream at once; more wait for one. */
const READER_CONNECTIONS = 4;
/** The reader thread's nice value, as the SQLite reader's: an export runs in the time the sales leave free. */
const READER_NICE = 10;
/** How a reader connection names itself in pg_stat_activity. */
export const PG_READER_APPLICATION = 'sdapi-heavy-reader';

const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const pg = require(workerData.driver);
${THREAD_HELPERS}
// As the main thread's driver (database.ts loadPg): int8 comes back as a number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
const pool = new pg.Pool({
  connectionString: workerData.url,
  max: workerData.connections,
  options: workerData.options,
  application_name: workerData.applicationName,
  connectionTimeoutMillis: workerData.connectTimeoutMs,
  idleTimeoutMillis: workerData.idleTimeoutMs,
  keepAlive: true,
});
pool.on('error', () => {});
pool.on('connect', (client) => client.on('error', () => {}));
/** Requests under way by id: the client running its statement, and whether it was cancelled. */
const running = new Map();

async function answer(message, state) {
  const client = await pool.connect();
  let rows;
  try {
    if (state.cancelled) throw Object.assign(new Error('cancelled'), { code: '57014' });
    state.client = client;
    rows = (await client.query(message.sql, message.parameters)).rows;
  } finally {
    state.client = null;
    // A cancelled statement leaves the connection usable: it goes back to the pool.
    client.release();
  }
  await postFormatted(message.id, rows, message.formatter);
}

/** Asks the server to stop the statement of \`client\` (its backend), on another connection of the pool. */
function cancel(state) {
  state.cancelled = true;
  if (state.client) pool.query('select pg_cancel_backend($1)', [state.client.processID]).catch(() => {});
}

parentPort.on('message', async (message) => {
  if (message === 'close') {
    await pool.end().catch(() => {});
    parentPort.close();
    return;
  }
  if (message.cancel !== undefined) {
    const state = running.get(message.cancel);
    if (state) cancel(state);
    return;
  }
  const state = { client: null, cancelled: false };
  running.set(message.id, state);
  try {
    await answer(message, state);
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: { message: String(err && err.message), code: err && err.code } });
  } finally {
    running.delete(message.id);
  }
});
`;

/** Heavy PostgreSQL reads whose rows leave as text, run on a thread of their own; see `openPgReader`. */
export interface PgReader {
  /** False once the thread has stopped: callers read on the main connection. */
  readonly usable: boolean;
  /**
   * Runs the statement on the thread's own connection and formats its rows there with
   * `formatRows(rows)` of the plain JavaScript module at `formatterUrl`, answering the bytes.
   * An abort of `signal` cancels the statement on the server and releases its connection.
   */
  formatted<R>(
    sql: string,
    parameters: readonly unknown[],
    formatterUrl: string,
    signal?: AbortSignal,
  ): Promise<FormattedRows<R>>;
  close(): Promise<void>;
}

export interface PgReaderTarget {
  url: string;
  /** The start-up options of the main pool (search_path, plan_cache_mode); none behind a transaction pooler. */
  options?: string;
  connectTimeoutMs: number;
}

/**
 * A worker thread with a small pg pool of its own on `target` (the primary, or the streaming
 * replica), for heavy reads that end as text (a CSV page): the statement's rows are parsed and
 * formatted there, and the event loop that serves orders only passes the bytes on. The thread
 * starts at the first read and holds no connection before; `close` ends both.
 */
export function openPgReader(target: PgReaderTarget): PgReader {
  const thread = openDatabaseThread(
    SOURCE,
    {
      driver: createRequire(import.meta.url).resolve('pg'),
      url: target.url,
      options: target.options,
      connectTimeoutMs: target.connectTimeoutMs,
      idleTimeoutMs: IDLE_CONNECTION_MS,
      connections: READER_CONNECTIONS,
      applicationName: PG_READER_APPLICATION,
      nice: READER_NICE,
    },
    'The PostgreSQL reader thread stopped',
  );
  return {
    get usable() {
      return thread.usable;
    },
    async formatted<R>(
      sql: string,
      parameters: readonly unknown[],
      formatterUrl: string,
      signal?: AbortSignal,
    ) {
      const answer = await thread.ask({ sql, parameters, formatter: formatterUrl }, signal);
      return { bytes: answer.bytes!, count: answer.count!, last: answer.last as R | undefined };
    },
    close: () => thread.close(),
  };
}

/** The reader thread of each PostgreSQL executor that has one (the primary's pool, the replica's). */
const readers = new WeakMap<object, PgReader>();

export function attachPgReader(db: object, reader: PgReader): void {
  readers.set(db, reader);
}

/** The reader thread of `ex`, if it is a PostgreSQL pool (not a transaction) that has one. */
export function pgReaderOf(ex: { readonly isTransaction: boolean }): PgReader | null {
  return ex.isTransaction ? null : (readers.get(ex) ?? null);
}
