import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box.js';
import { deriveSecretKeys } from '../../lib/secret-format.mjs';
import { KeySealer } from './key-sealer.js';
import { readSealed, type SealedBatch, SealedBatchBuilder } from './sealed-batch.mjs';

const MASTER = '5a'.repeat(32);
const secrets = new SecretBox(MASTER);
const keys = ['KEY-1', 'KEY-2', 'KEY-1', 'KEY-3', 'KEY-2'];

const rowsOf = (batch: SealedBatch) => readSealed(batch.packed, 0, Number.MAX_SAFE_INTEGER).rows;
const plaintextsOf = (batch: SealedBatch) => rowsOf(batch).map((row) => secrets.open(row.ciphertext));

describe('sealed batches', () => {
  it('seal each distinct key once, in file order, under the master key, across slices', () => {
    const builder = new SealedBatchBuilder(deriveSecretKeys(MASTER));
    builder.add(keys.slice(0, 2));
    builder.add(keys.slice(2));
    const batch = builder.finish();
    expect(batch.keys).toBe(5);
    expect(plaintextsOf(batch)).toEqual(['KEY-1', 'KEY-2', 'KEY-3']);
    expect(rowsOf(batch).map((row) => row.fingerprint)).toEqual(
      ['KEY-1', 'KEY-2', 'KEY-3'].map((k) => secrets.fingerprint(k)),
    );
    // The next batch starts empty: a key of the last one is sealed again, under a fresh IV.
    builder.add(['KEY-1']);
    const next = builder.finish();
    expect(plaintextsOf(next)).toEqual(['KEY-1']);
    expect(rowsOf(next)[0]!.ciphertext).not.toBe(rowsOf(batch)[0]!.ciphertext);
  });

  it('read out in pages that end where the next begins', () => {
    const builder = new SealedBatchBuilder(deriveSecretKeys(MASTER));
    const many = Array.from({ length: 7 }, (_, i) => `PAGE-${'x'.repeat(i * 40)}-${i}`);
    builder.add(many);
    const { packed } = builder.finish();
    const pages: string[][] = [];
    for (let offset = 0; offset < packed.length; ) {
      const { rows, next } = readSealed(packed, offset, 3);
      pages.push(rows.map((row) => secrets.open(row.ciphertext)));
      offset = next;
    }
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(many);
  });
});

describe('key sealer (worker thread)', () => {
  const sealer = new KeySealer(MASTER);
  afterAll(() => sealer.close());

  it('seals exactly as this thread does, answering batches in order', async () => {
    sealer.add(keys.slice(0, 3));
    sealer.add(keys.slice(3));
    const first = sealer.finish();
    sealer.add(['KEY-8', 'KEY-8', 'KEY-9']);
    const second = sealer.finish();
    const [a, b] = await Promise.all([first, second]);
    expect(a.keys).toBe(5);
    expect(plaintextsOf(a)).toEqual(['KEY-1', 'KEY-2', 'KEY-3']);
    expect(rowsOf(a).map((row) => row.fingerprint)).toEqual(
      ['KEY-1', 'KEY-2', 'KEY-3'].map((k) => secrets.fingerprint(k)),
    );
    expect(b.keys).toBe(3);
    expect(plaintextsOf(b)).toEqual(['KEY-8', 'KEY-9']);
  });

  it('fails what is pending, and what is asked later, when the worker stops', async () => {
    const stopped = new KeySealer(MASTER);
    stopped.add(['KEY-1']);
    const pending = stopped.finish();
    await stopped.close();
    await expect(pending).rejects.toThrow('the key sealer stopped');
    await expect(stopped.finish()).rejects.toThrow('the key sealer stopped');
  });
});
