// The at-rest format of SecretBox (secret-box.ts is the API to use). Plain JavaScript so that a
// worker thread loads it without a TypeScript loader, which would cost each worker ~30 MB.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

export const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The keys derived from the master key (64 hex characters), one per purpose. */
export function deriveSecretKeys(masterKeyHex) {
  if (!/^[0-9a-fA-F]{64}$/.test(masterKeyHex))
    throw new Error('SDAPI_MASTER_KEY must be 64 hex characters (32 bytes)');
  const master = Buffer.from(masterKeyHex, 'hex');
  const derive = (purpose) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
  return {
    sealing: derive('sdapi:aes-256-gcm:v1'),
    fingerprint: derive('sdapi:fingerprint:v1'),
    urlSigning: derive('sdapi:url-signing:v1'),
  };
}

/** base64 of iv | tag | AES-256-GCM ciphertext. */
export function sealWith(key, iv, plaintext) {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Throws when the box was tampered with or sealed under another key. */
export function openWith(key, sealed) {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

/** 128 bits of the HMAC: collisions are out of reach (birthday bound 2^64) and the index stays small. */
export function fingerprintWith(key, plaintext) {
  return createHmac('sha256', key).update(plaintext).digest().subarray(0, 16).toString('base64url');
}
