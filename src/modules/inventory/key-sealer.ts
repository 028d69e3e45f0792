import { Worker } from 'node:worker_threads';
import { deriveSecretKeys } from '../../lib/secret-format.mjs';
import { type SealedBatch, SealedBatchBuilder } from './sealed-batch.mjs';

/** Sealing of one batch at a time: keys added in slices, then the batch finished. */
export interface KeySealing {
  /** Adds keys to the batch being sealed. */
  add(keys: string[]): void;
  /**
   * Closes the batch being sealed and answers it once sealed, written into `into` when it fits
   * (memory a caller passes back and forth instead of allocating a batch each).
   */
  finish(into?: ArrayBuffer): Promise<SealedBatch>;
}

/** Sealing on this thread: for a first batch, before a worker is worth starting. */
export function sealingInPlace(masterKeyHex: string): KeySealing {
  const builder = new SealedBatchBuilder(deriveSecretKeys(masterKeyHex));
  return {
    add: (keys) => builder.add(keys),
    finish: (into) => Promise.resolve(builder.finish(into)),
  };
}

interface SealedMessage {
  id: number;
  keys: number;
  memory: ArrayBuffer;
  length: number;
}

/**
 * Seals keys on a worker thread, so that a large import encrypts one batch while the main thread
 * stores the previous one (AES-GCM and HMAC cost about as much per key as the insert). Keys are
 * sent in small slices as they are read, so no slice lives long enough on the main thread to be
 * promoted to its old generation; `finish` answers the batch packed off the heap, in memory the
 * caller passes back and forth. Batches are answered in order. The worker's heap is capped: it
 * holds one batch at a time.
 */
export class KeySealer implements KeySealing {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve(batch: SealedBatch): void; reject(err: Error): void }
  >();
  private nextId = 0;
  private failure: Error | undefined;

  constructor(masterKeyHex: string) {
    this.worker = new Worker(new URL('./key-sealer.worker.mjs', import.meta.url), {
      workerData: masterKeyHex,
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    });
    this.worker.on('message', ({ id, keys, memory, length }: SealedMessage) => {
      this.pending.get(id)?.resolve({ keys, packed: Buffer.from(memory, 0, length) });
      this.pending.delete(id);
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', () => this.failAll(new Error('the key sealer stopped')));
  }

  add(keys: string[]): void {
    if (!this.failure) this.worker.postMessage({ keys });
  }

  /** `into` is handed to the worker, which writes the batch into it when it fits. */
  finish(into?: ArrayBuffer): Promise<SealedBatch> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ finish: id, into }, into ? [into] : []);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private failAll(err: Error) {
    this.failure ??= err;
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }
}
