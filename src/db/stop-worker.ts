import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';

/**
 * Asks a database thread to close its connection (`message`) and waits until it has exited, at
 * most a second, then ends it. The thread is held meanwhile: the caller's event loop may have
 * nothing else to wait for.
 */
export async function stopWorker(worker: Worker, message: string): Promise<void> {
  worker.ref();
  const exited = once(worker, 'exit').catch(() => undefined);
  worker.postMessage(message);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
  clearTimeout(timer);
  await worker.terminate();
}
