import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes drawn from a pool refilled 8 KiB at a time: one syscall serves hundreds of ids.
const POOL_SIZE = 8192;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function takeRandom(count: number): Buffer {
  if (poolOffset + count > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const slice = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return slice;
}

/** Random lower-case Crockford base32 of the given length (not for secrets: use randomToken). */
export function randomBase32(length: number): string {
  const bytes = takeRandom(length);
  let out = '';
  for (let i = 0; i < length; i++) out += CROCKFORD[bytes[i]! & 31];
  return out;
}

/** RFC 9562 UUID version 7: 48-bit millisecond timestamp then random bits, so ids sort by creation. */
export function uuidv7(nowMs: number = Date.now()): string {
  const bytes = Buffer.from(takeRandom(16));
  bytes.writeUInt32BE(Math.floor(nowMs / 0x10000), 0);
  bytes.writeUInt16BE(nowMs % 0x10000, 4);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Readable prefixed id such as `alloc_8f3k2m9q1x7c`. */
export const readableId = (prefix: string): string => `${prefix}_${randomBase32(16)}`;

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const isUuid = (value: string): boolean => new RegExp(UUID_PATTERN).test(value);
