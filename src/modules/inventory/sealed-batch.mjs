// A batch of sealed game keys packed in one Buffer. Per key: the ciphertext's length (uint16),
// the ciphertext (base64, so ASCII) and the fingerprint (22 ASCII characters). The bytes live
// outside the JavaScript heap, so a batch waiting for its transaction never ages into the old
// generation, and the worker hands it over without copying. Plain JavaScript so that the
// sealing worker loads it without a TypeScript loader.
import { randomBytes } from 'node:crypto';
import { fingerprintWith, IV_BYTES, sealWith } from '../../lib/secret-format.mjs';

// 16 bytes of HMAC in base64url (fingerprintWith): a fixed width, so it is stored without a length.
const FINGERPRINT_CHARS = 22;

/** Seals keys into one batch in arrival order, leaving out repeats of a key the batch holds. */
export class SealedBatchBuilder {
  #secretKeys;
  #chunks = [];
  #seen = new Set();
  #keys = 0;

  constructor(secretKeys) {
    this.#secretKeys = secretKeys;
  }

  add(keys) {
    const ivs = randomBytes(IV_BYTES * keys.length);
    const sealed = [];
    let bytes = 0;
    keys.forEach((key, i) => {
      const fingerprint = fingerprintWith(this.#secretKeys.fingerprint, key);
      if (fingerprint.length !== FINGERPRINT_CHARS) throw new Error('unexpected fingerprint width');
      if (this.#seen.has(fingerprint)) return;
      this.#seen.add(fingerprint);
      const ciphertext = sealWith(
        this.#secretKeys.sealing,
        ivs.subarray(i * IV_BYTES, (i + 1) * IV_BYTES),
        key,
      );
      sealed.push(ciphertext, fingerprint);
      bytes += 2 + ciphertext.length + FINGERPRINT_CHARS;
    });
    const chunk = Buffer.allocUnsafe(bytes);
    let offset = 0;
    for (let i = 0; i < sealed.length; i += 2) {
      offset = chunk.writeUInt16BE(sealed[i].length, offset);
      offset += chunk.write(sealed[i], offset, 'latin1');
      offset += chunk.write(sealed[i + 1], offset, 'latin1');
    }
    this.#chunks.push(chunk);
    this.#keys += keys.length;
  }

  /**
   * The batch: how many keys it was given, and the distinct ones sealed. Written into `into`
   * when it is large enough, so that two buffers passed back and forth carry every batch of an
   * import; otherwise into a new buffer of its own (never Node's shared pool: the worker
   * transfers this memory to the main thread).
   */
  finish(into) {
    const total = this.#chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const memory = into && into.byteLength >= total ? into : new ArrayBuffer(Math.max(total, 1));
    const packed = Buffer.from(memory, 0, total);
    let offset = 0;
    for (const chunk of this.#chunks) offset += chunk.copy(packed, offset);
    const batch = { keys: this.#keys, packed };
    this.#chunks = [];
    this.#seen = new Set();
    this.#keys = 0;
    return batch;
  }
}

/** Up to `max` sealed keys of a packed batch from byte `offset`, and where the next ones start. */
export function readSealed(packed, offset, max) {
  const rows = [];
  let at = offset;
  while (rows.length < max && at < packed.length) {
    const length = packed.readUInt16BE(at);
    const ciphertext = packed.toString('latin1', at + 2, at + 2 + length);
    at += 2 + length;
    rows.push({ ciphertext, fingerprint: packed.toString('latin1', at, at + FINGERPRINT_CHARS) });
    at += FINGERPRINT_CHARS;
  }
  return { rows, next: at };
}
