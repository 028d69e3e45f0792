import { randomBytes } from 'node:crypto';

// CSPRNG bytes drawn from a pool refilled 16 KiB at a time: one syscall serves hundreds of ids
// and IVs. Not for long-lived secrets (API keys use randomSecretBase32 in crypto.ts).
const POOL_SIZE = 16384;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

export function pooledRandomBytes(count: number): Buffer {
  if (offset + count > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const slice = pool.subarray(offset, offset + count);
  offset += count;
  return slice;
}
