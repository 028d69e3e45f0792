import type { deriveSecretKeys } from '../../lib/secret-format.mjs';

export interface SealedBatch {
  /** Keys given to the batch, repeats included. */
  keys: number;
  packed: Buffer;
}

export declare class SealedBatchBuilder {
  constructor(secretKeys: ReturnType<typeof deriveSecretKeys>);
  add(keys: readonly string[]): void;
  finish(into?: ArrayBuffer): SealedBatch;
}

export declare function readSealed(
  packed: Buffer,
  offset: number,
  max: number,
): { rows: { ciphertext: string; fingerprint: string }[]; next: number };
