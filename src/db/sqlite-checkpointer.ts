import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { stopWorker } from './stop-worker.js';

/** WAL pages past which the writer checkpoints by itself: the background checkpoints fell behind or stopped. */
export const WRITER_AUTOCHECKPOINT_PAGES = 4_000;
const INTERVAL_MS = 50;

const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * WAL checkpoints of a SQLite file on a thread of their own, as SQLite's WAL documentation
 * suggests, so that the commit that crosses the checkpoint size does not stall the event loop
 * (3-10 ms each, every 1,000 pages by default: 7% of the server's time under POST /orders on
 * the bench). A PASSIVE checkpoint every 50 ms copies committed pages into the database file
 * without blocking the writer or the readers. The writer keeps its own automatic checkpoint at
 * `WRITER_AUTOCHECKPOINT_PAGES`: it then finds the pages already copied, and the WAL starts
 * again from its beginning (it can only restart after a checkpoint by the writer's own
 * connection under load), so the WAL stays under about 16 MB; if this thread stops, the
 * writer checkpoints alone as before.
 */
export function startCheckpointer(path: string): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(SOURCE, { eval: true, workerData: { path, driver, intervalMs: INTERVAL_MS } });
  worker.unref();
  worker.on('error', () => {});
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= stopWorker(worker, 'stop');
      return stopped;
    },
  };
}
