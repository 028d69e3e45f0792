import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { pooledRandomBytes } from './random.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM under the master key for secrets at rest (game keys, webhook secrets), plus a
 * keyed fingerprint (HMAC-SHA256 under a key derived from the master key) that lets the store
 * deduplicate and look up secrets without holding their plaintext.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly fingerprintKey: Buffer;
  private readonly signingKey: Buffer;

  constructor(masterKeyHex: string) {
    if (!/^[0-9a-fA-F]{64}$/.test(masterKeyHex))
      throw new Error('SDAPI_MASTER_KEY must be 64 hex characters (32 bytes)');
    const master = Buffer.from(masterKeyHex, 'hex');
    this.key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'sdapi:aes-256-gcm:v1', 32));
    const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
    this.fingerprintKey = derive('sdapi:fingerprint:v1');
    this.signingKey = derive('sdapi:url-signing:v1');
  }

  /** base64 of iv | tag | ciphertext. */
  seal(plaintext: string): string {
    const iv = Buffer.from(pooledRandomBytes(IV_BYTES));
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** Throws when the box was tampered with or sealed under another key. */
  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }

  /** 128 bits of the HMAC: collisions are out of reach (birthday bound 2^64) and the index stays small. */
  fingerprint(plaintext: string): string {
    return createHmac('sha256', this.fingerprintKey)
      .update(plaintext)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /** HMAC-SHA256 (base64url) for short-lived signed URLs of this service. */
  sign(text: string): string {
    return createHmac('sha256', this.signingKey).update(text).digest('base64url');
  }
}
