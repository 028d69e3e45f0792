import { afterAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secret-box.js';
import { dropRepeats, KeySealer, sealAll } from './key-sealer.js';

const MASTER = '5a'.repeat(32);
const secrets = new SecretBox(MASTER);
const keys = ['KEY-1', 'KEY-2', 'KEY-1', 'KEY-3', 'KEY-2'];

describe('key sealer', () => {
  const sealer = new KeySealer(MASTER);
  afterAll(() => sealer.close());

  it('seals each distinct key once, in file order, under the master key', () => {
    const sealed = dropRepeats(sealAll(secrets, keys));
    expect(sealed.ciphertexts.map((c) => secrets.open(c))).toEqual(['KEY-1', 'KEY-2', 'KEY-3']);
    expect(sealed.fingerprints).toEqual(['KEY-1', 'KEY-2', 'KEY-3'].map((k) => secrets.fingerprint(k)));
  });

  it('seals on a worker thread exactly as on the main thread, answering batches in order', async () => {
    const batches = [keys, ['KEY-9'], ['KEY-8', 'KEY-8']];
    const results = await Promise.all(batches.map((batch) => sealer.seal(batch)));
    // A fresh IV per key: the same key sealed twice gives two ciphertexts.
    expect(new Set(results[0]!.ciphertexts).size).toBe(keys.length);
    results.forEach((sealed, i) => {
      const inline = sealAll(secrets, batches[i]!);
      expect(sealed.fingerprints).toEqual(inline.fingerprints);
      expect(sealed.ciphertexts.map((c) => secrets.open(c))).toEqual(
        inline.ciphertexts.map((c) => secrets.open(c)),
      );
    });
  });

  it('fails what is pending when the worker stops', async () => {
    const stopped = new KeySealer(MASTER);
    const pending = stopped.seal(['KEY-1']);
    await stopped.close();
    await expect(pending).rejects.toThrow('the key sealer stopped');
  });
});
