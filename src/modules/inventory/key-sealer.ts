import type { Worker } from 'node:worker_threads';
import type { SecretBox } from '../../lib/secret-box.js';
import { startWorker } from '../../lib/workers/start-worker.js';

export interface SealedKeys {
  ciphertexts: string[];
  fingerprints: string[];
}

export interface SealRequest {
  id: number;
  keys: string[];
}

/** Encrypts and fingerprints keys, in order, leaving out repeats of a key already in the batch. */
export function sealUnique(secrets: SecretBox, keys: string[]): SealedKeys {
  const sealed: SealedKeys = { ciphertexts: [], fingerprints: [] };
  const seen = new Set<string>();
  for (const key of keys) {
    const fingerprint = secrets.fingerprint(key);
    if (seen.has(fingerprint)) continue;
    seen.add(fingerprint);
    sealed.fingerprints.push(fingerprint);
    sealed.ciphertexts.push(secrets.seal(key));
  }
  return sealed;
}

/**
 * Seals batches of keys on a worker thread, so that a large import encrypts one batch while the
 * main thread stores the previous one (AES-GCM and HMAC cost about as much per key as the
 * insert). Batches are answered in the order they were sent.
 */
export class KeySealer {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve(sealed: SealedKeys): void; reject(err: Error): void }
  >();
  private nextId = 0;

  constructor(masterKeyHex: string) {
    this.worker = startWorker(new URL('./key-sealer.worker.ts', import.meta.url), masterKeyHex);
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
      this.worker.postMessage({ id, keys } satisfies SealRequest);
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
