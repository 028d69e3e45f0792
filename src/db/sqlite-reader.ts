import { createRequire } from 'node:module';
import { type FormattedRows, openDatabaseThread, THREAD_HELPERS } from './database-thread.js';

const STATEMENT_CACHE_SIZE = 256;
/** The reader thread's nice value: a heavy read gets about a tenth of a core the sales want (CFS weights). */
const READER_NICE = 10;

const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
${THREAD_HELPERS}
const db = new Database(workerData.path, { readonly: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -16384');
db.pragma('temp_store = MEMORY');
const statements = new Map();
async function answer(message) {
  let statement = statements.get(message.sql);
  if (!statement) {
    if (statements.size >= workerData.cacheSize) statements.clear();
    statement = db.prepare(message.sql);
    statements.set(message.sql, statement);
  }
  const rows = statement.all(message.parameters);
  if (!message.formatter) return parentPort.postMessage({ id: message.id, rows });
  return postFormatted(message.id, rows, message.formatter);
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

/**
 * A read-only better-sqlite3 connection to the SQLite file `path` on a worker thread, for the
 * seller reads that can take more than a few milliseconds (lists, CSV pages, statements): while
 * it runs one, the event loop keeps serving orders. WAL lets it read beside the writer; each
 * statement sees the database as last committed when it starts. Reads run one at a time, in the
 * order asked. The thread starts at the first read; `close` ends it.
 */
export function openSqliteReader(path: string): SqliteReader {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = openDatabaseThread(
    SOURCE,
    { path, driver, cacheSize: STATEMENT_CACHE_SIZE, nice: READER_NICE },
    'The SQLite reader thread stopped',
  );
  return {
    get usable() {
      return thread.usable;
    },
    async all<R>(sql: string, parameters: readonly unknown[]) {
      return ((await thread.ask({ sql, parameters })).rows ?? []) as R[];
    },
    async formatted<R>(sql: string, parameters: readonly unknown[], formatterUrl: string) {
      const answer = await thread.ask({ sql, parameters, formatter: formatterUrl });
      return { bytes: answer.bytes!, count: answer.count!, last: answer.last as R | undefined };
    },
    close: () => thread.close(),
  };
}
