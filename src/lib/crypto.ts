import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One-shot digest (no Hash object): it runs on every authenticated request. */
export const sha256Hex = (input: string | Buffer): string => hash('sha256', input, 'hex');

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** URL-safe random secret of `bytes` bytes of entropy. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

/** A secret of lower-case Crockford base32 characters (5 bits of entropy each), fresh from the CSPRNG. */
export function randomSecretBase32(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += BASE32[bytes[i]! & 31];
  return out;
}
