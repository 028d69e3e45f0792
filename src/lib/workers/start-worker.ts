import { Worker } from 'node:worker_threads';

const BOOT = new URL('./boot.mjs', import.meta.url);

/**
 * Starts a worker thread running a TypeScript module; `data` reaches it as workerData.data.
 * Workers here compute over one batch at a time, so their heap is kept small.
 */
export function startWorker(entry: URL, data: unknown): Worker {
  return new Worker(BOOT, {
    workerData: { entry: entry.href, data },
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
  });
}
