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
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); parentPort.close(); return; }
  try {
    let statement = statements.get(message.sql);
    if (!statement) {
      if (statements.size >= workerData.cacheSize) statements.clear();
      statement = db.prepare(message.sql);
      statements.set(message.sql, statement);
    }
    parentPort.postMessage({ id: message.id, rows: statement.all(message.parameters) });
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
`;

/** Runs read statements on a thread of its own; see `openSqliteReader`. */
export interface SqliteReader {
  /** False once the thread could not open the database or has stopped: callers read on the main connection. */
  readonly usable: boolean;
  all<R>(sql: string, parameters: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

interface Pending {
  resolve(rows: unknown[]): void;
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
    started.on(
      'message',
      (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const request = pending.get(message.id);
        if (!request) return;
        pending.delete(message.id);
        if (pending.size === 0) started.unref();
        if (message.error)
          request.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else request.resolve(message.rows ?? []);
      },
    );
    started.on('error', failAll);
    started.on('exit', () => failAll(new Error('The SQLite reader thread stopped')));
    return started;
  };

  return {
    get usable() {
      return !failed && !closing;
    },
    all<R>(sql: string, parameters: readonly unknown[]) {
      if (failed || closing) return Promise.reject(new Error('The SQLite reader thread is not running'));
      worker ??= start();
      const id = nextId++;
      const running = worker;
      // Held while a read is under way, so that the process waits for its answer.
      if (pending.size === 0) running.ref();
      return new Promise<R[]>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
        running.postMessage({ id, sql, parameters });
      });
    },
    close() {
      closing ??= worker ? stopWorker(worker, 'close') : Promise.resolve();
      return closing;
    },
  };
}
