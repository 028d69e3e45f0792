import { Worker } from 'node:worker_threads';
import type { SecretBox } from '../../lib/secret-box.js';

export interface SealedKeys {
  ciphertexts: string[];
  fingerprints: string[];
}

/** Encrypts and fingerprints keys, in order, on this thread. */
export function sealAll(secrets: SecretBox, keys: string[]): SealedKeys {
  return {
    ciphertexts: keys.map((key) => secrets.seal(key)),
    fingerprints: keys.map((key) => secrets.fingerprint(key)),
  };
}

/** Leaves out repeats of a key already earlier in the batch (same fingerprint). */
export function dropRepeats(sealed: SealedKeys): SealedKeys {
  const unique: SealedKeys = { ciphertexts: [], fingerprints: [] };
  const seen = new Set<string>();
  sealed.fingerprints.forEach((fingerprint, i) => {
    if (seen.has(fingerprint)) return;
    seen.add(fingerprint);
    unique.fingerprints.push(fingerprint);
    unique.ciphertexts.push(sealed.ciphertexts[i]!);
  });
  return unique;
}

/**
 * Seals batches of keys on a worker thread, so that a large import encrypts one batch while the
 * main thread stores the previous one (AES-GCM and HMAC cost about as much per key as the
 * insert). Batches are answered in the order they were sent. The worker holds one batch at a
 * time, so its heap is kept small.
 */
export class KeySealer {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve(sealed: SealedKeys): void; reject(err: Error): void }
  >();
  private nextId = 0;

  constructor(masterKeyHex: string) {
    this.worker = new Worker(new URL('./key-sealer.worker.mjs', import.meta.url), {
      workerData: masterKeyHex,
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    });
    this.worker.on('message', ({ id, ...sealed }: SealedKeys & { id: number }) => {
      this.pending.get(id)?.resolve(sealed);
      this.pending.delete(id);
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', () => this.failAll(new Error('the key sealer stopped')));
  }

  seal(keys: string[]): Promise<SealedKeys> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, keys });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private failAll(err: Error) {
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }
}
