import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { stopWorker } from './stop-worker.js';

const STATEMENT_CACHE_SIZE = 256;
/** The reader thread's nice value: a heavy read gets about a tenth of a core the sales want (CFS weights). */
const READER_NICE = 10;

const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
// Linux: this thread alone yields the CPU to the event loop (setpriority on a thread id sets that
// thread's nice value), so a long statement runs in the time sales leave free. Elsewhere: no-op.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
const db = new Database(workerData.path, { readonly: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -16384');
db.pragma('temp_store = MEMORY');
const statements = new Map();
const formatters = new Map();
const encoder = new TextEncoder();
async function answer(message) {
  let statement = statements.get(message.sql);
  if (!statement) {
    if (statements.size >= workerData.cacheSize) statements.clear();
    statement = db.prepare(message.sql);
    statements.set(message.sql, statement);
  }
  const rows = statement.all(message.parameters);
  if (!message.formatter) return parentPort.postMessage({ id: message.id, rows });
  let formatter = formatters.get(message.formatter);
  if (!formatter) {
    formatter = await import(message.formatter);
    formatters.set(message.formatter, formatter);
  }
  // Encoded here and handed over without a copy: the event loop only writes the bytes out.
  const bytes = encoder.encode(formatter.formatRows(rows));
  parentPort.postMessage({ id: message.id, bytes, count: rows.length, last: rows.at(-1) }, [bytes.buffer]);
}
// One message at a time, in the order sent (a formatter's first use waits for its import).
let queue = Promise.resolve();
parentPort.on('message', (message) => {
  queue = queue.then(async () => {
    if (message === 'close') { db.close(); parentPort.close(); return; }
    try {
      await answer(message);
    } catch (err) {
      parentPort.postMessage({ id: message.id, error: { message: String(err && err.message), code: err && err.code } });
    }
  });
});
`;

/** A batch of rows formatted as text on the reader thread: its UTF-8 bytes, how many rows, the last row. */
export interface FormattedRows<R> {
  bytes: Uint8Array;
  count: number;
  last: R | undefined;
}

/** Runs read statements on a thread of its own; see `openSqliteReader`. */
export interface SqliteReader {
  /** False once the thread could not open the database or has stopped: callers read on the main connection. */
  readonly usable: boolean;
  all<R>(sql: string, parameters: readonly unknown[]): Promise<R[]>;
  /**
   * Runs the statement and formats its rows on the thread with `formatRows(rows)` of the plain
   * JavaScript module at `formatterUrl` (a file URL), answering the text's bytes.
   */
  formatted<R>(sql: string, parameters: readonly unknown[], formatterUrl: string): Promise<FormattedRows<R>>;
  close(): Promise<void>;
}

interface Answer {
  id: number;
  rows?: unknown[];
  bytes?: Uint8Array;
  count?: number;
  last?: unknown;
  error?: { message: string; code?: string };
}

interface Pending {
  resolve(answer: Answer): void;
  reject(err: unknown): void;
}

/**
 * A read-only better-sqlite3 connection to the SQLite file `path` on a worker thread, for the
 * seller reads that can take more than a few milliseconds (lists, CSV pages, statements): while
 * it runs one, the event loop keeps serving orders. WAL lets it read beside the writer; each
 * statement sees the database as last committed when it starts. Reads run one at a time, in the
 * order asked. The thread starts at the first read; `close` ends it.
 */
export function openSqliteReader(path: string): SqliteReader {
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let failed = false;
  let closing: Promise<void> | null = null;
  let nextId = 0;

  const failAll = (err: unknown) => {
    failed = true;
    for (const request of pending.values()) request.reject(err);
    pending.clear();
  };
  const start = () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const started = new Worker(SOURCE, {
      eval: true,
      workerData: { path, driver, cacheSize: STATEMENT_CACHE_SIZE, nice: READER_NICE },
    });
    started.unref();
    started.on('message', (message: Answer) => {
      const request = pending.get(message.id);
      if (!request) return;
      pending.delete(message.id);
      if (pending.size === 0) started.unref();
      if (message.error)
        request.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else request.resolve(message);
    });
    started.on('error', failAll);
    started.on('exit', () => failAll(new Error('The SQLite reader thread stopped')));
    return started;
  };

  const ask = (request: { sql: string; parameters: readonly unknown[]; formatter?: string }) => {
    if (failed || closing) return Promise.reject(new Error('The SQLite reader thread is not running'));
    worker ??= start();
    const id = nextId++;
    const running = worker;
    // Held while a read is under way, so that the process waits for its answer.
    if (pending.size === 0) running.ref();
    return new Promise<Answer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      running.postMessage({ id, ...request });
    });
  };

  return {
    get usable() {
      return !failed && !closing;
    },
    async all<R>(sql: string, parameters: readonly unknown[]) {
      return ((await ask({ sql, parameters })).rows ?? []) as R[];
    },
    async formatted<R>(sql: string, parameters: readonly unknown[], formatterUrl: string) {
      const answer = await ask({ sql, parameters, formatter: formatterUrl });
      return { bytes: answer.bytes!, count: answer.count!, last: answer.last as R | undefined };
    },
    close() {
      closing ??= worker ? stopWorker(worker, 'close') : Promise.resolve();
      return closing;
    },
  };
}
