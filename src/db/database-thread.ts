import { Worker } from 'node:worker_threads';
import { stopWorker } from './stop-worker.js';

/**
 * Source both database threads start with: the thread lowers its own priority to
 * `workerData.nice` (Linux: setpriority on a thread id sets that thread's nice value, so a long
 * statement runs in the time sales leave free; elsewhere a no-op), and `postFormatted` formats
 * rows with the plain JavaScript module at `formatterUrl` and hands the bytes to the event loop.
 */
export const THREAD_HELPERS = `
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
const formatters = new Map();
const encoder = new TextEncoder();
async function postFormatted(id, rows, formatterUrl) {
  let formatter = formatters.get(formatterUrl);
  if (!formatter) {
    formatter = await import(formatterUrl);
    formatters.set(formatterUrl, formatter);
  }
  // Encoded here and handed over without a copy: the event loop only writes the bytes out.
  const bytes = encoder.encode(formatter.formatRows(rows));
  parentPort.postMessage({ id, bytes, count: rows.length, last: rows.at(-1) }, [bytes.buffer]);
}
`;

/** A batch of rows formatted as text on a database thread: its UTF-8 bytes, how many rows, the last row. */
export interface FormattedRows<R> {
  bytes: Uint8Array;
  count: number;
  last: R | undefined;
}

/** What a database thread answers to one request (`id`): rows, or formatted bytes, or an error. */
export interface ThreadAnswer {
  id: number;
  rows?: unknown[];
  bytes?: Uint8Array;
  count?: number;
  last?: unknown;
  error?: { message: string; code?: string };
}

interface Pending {
  resolve(answer: ThreadAnswer): void;
  reject(err: unknown): void;
}

/** The main thread's side of a database thread (sqlite-reader.ts, pg-reader.ts). */
export interface DatabaseThread {
  /** False once the thread could not start or has stopped: callers read on the main connection. */
  readonly usable: boolean;
  /**
   * Sends `request` and waits for its answer. With `signal`, an abort rejects at once and tells
   * the thread `{ cancel: id }`, so that it can stop the statement under way.
   */
  ask(request: Record<string, unknown>, signal?: AbortSignal): Promise<ThreadAnswer>;
  /** Sends 'close' and waits for the thread to end (at most a second). */
  close(): Promise<void>;
}

/**
 * The young generation of a database thread's heap, at most. V8 grows an isolate's young
 * generation with its allocation rate, up to 16 MB a semi-space; formatting export batches
 * allocates fast and keeps nearly nothing, so a reader thread's heap crept up by some 30 MB
 * over its first ten minutes under a mixed load (its pages read from /proc in a soak) and held
 * there. Scavenging a small young generation costs little when nearly everything in it is dead:
 * 8 MB held a 30-minute PostgreSQL soak's resident memory within 5%, and 4 MB cost a large
 * export about a quarter of its speed (docs/operations.md, the soaks of 5 December).
 */
const THREAD_YOUNG_GENERATION_MB = 8;

/**
 * A worker thread running `source` (CommonJS, evaluated) with `workerData`, started at the first
 * request. Each request gets an id; the thread answers `{ id, … }` once per request, in any
 * order. The thread holds the process only while a request is under way.
 */
export function openDatabaseThread(
  source: string,
  workerData: Record<string, unknown>,
  stoppedMessage: string,
): DatabaseThread {
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
  const settled = (running: Worker, id: number) => {
    pending.delete(id);
    if (pending.size === 0) running.unref();
  };
  const start = () => {
    const started = new Worker(source, {
      eval: true,
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    });
    started.unref();
    started.on('message', (message: ThreadAnswer) => {
      const request = pending.get(message.id);
      if (!request) return;
      settled(started, message.id);
      if (message.error)
        request.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else request.resolve(message);
    });
    started.on('error', failAll);
    started.on('exit', () => failAll(new Error(stoppedMessage)));
    return started;
  };

  return {
    get usable() {
      return !failed && !closing;
    },
    ask(request, signal) {
      if (failed || closing) return Promise.reject(new Error(`${stoppedMessage} (not running)`));
      if (signal?.aborted) return Promise.reject(signal.reason);
      worker ??= start();
      const id = nextId++;
      const running = worker;
      // Held while a request is under way, so that the process waits for its answer.
      if (pending.size === 0) running.ref();
      return new Promise<ThreadAnswer>((resolve, reject) => {
        const onAbort = () => {
          if (!pending.has(id)) return;
          settled(running, id);
          running.postMessage({ cancel: id });
          reject(signal!.reason);
        };
        pending.set(id, {
          resolve: (answer) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(answer);
          },
          reject: (err) => {
            signal?.removeEventListener('abort', onAbort);
            reject(err);
          },
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        running.postMessage({ id, ...request });
      });
    },
    close() {
      closing ??= worker ? stopWorker(worker, 'close') : Promise.resolve();
      return closing;
    },
  };
}
