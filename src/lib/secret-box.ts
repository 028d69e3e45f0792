import { createHmac } from 'node:crypto';
import { pooledRandomBytes } from './random.js';
import { deriveSecretKeys, fingerprintWith, IV_BYTES, openWith, sealWith } from './secret-format.mjs';

/**
 * AES-256-GCM under the master key for secrets at rest (game keys, webhook secrets), plus a
 * keyed fingerprint (HMAC-SHA256 under a key derived from the master key) that lets the store
 * deduplicate and look up secrets without holding their plaintext. The format itself is in
 * secret-format.mjs, shared with the key-sealing worker.
 */
export class SecretBox {
  private readonly keys: ReturnType<typeof deriveSecretKeys>;

  constructor(masterKeyHex: string) {
    this.keys = deriveSecretKeys(masterKeyHex);
  }

  /** base64 of iv | tag | ciphertext. */
  seal(plaintext: string): string {
    return sealWith(this.keys.sealing, Buffer.from(pooledRandomBytes(IV_BYTES)), plaintext);
  }

  /** Throws when the box was tampered with or sealed under another key. */
  open(sealed: string): string {
    return openWith(this.keys.sealing, sealed);
  }

  fingerprint(plaintext: string): string {
    return fingerprintWith(this.keys.fingerprint, plaintext);
  }

  /** HMAC-SHA256 (base64url) for short-lived signed URLs of this service. */
  sign(text: string): string {
    return createHmac('sha256', this.keys.urlSigning).update(text).digest('base64url');
  }
}
