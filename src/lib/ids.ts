import { pooledRandomBytes } from './random.js';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** Random lower-case Crockford base32 of the given length (not for secrets: use randomToken). */
export function randomBase32(length: number): string {
  const bytes = pooledRandomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += CROCKFORD[bytes[i]! & 31];
  return out;
}

/** Characters of base32 that hold a millisecond time (50 bits: past the year 10000). */
const TIME_CHARS = 10;

/**
 * Lower-case Crockford base32 of the given length (more than 10) that sorts by time: the
 * millisecond time in the first 10 characters, random characters after it. A primary key of
 * such ids takes new rows at its end instead of all over its index.
 */
export function timeOrderedBase32(length: number, nowMs: number = Date.now()): string {
  let time = '';
  for (let i = 0, rest = Math.max(0, Math.floor(nowMs)); i < TIME_CHARS; i++, rest = Math.floor(rest / 32))
    time = CROCKFORD[rest % 32] + time;
  return time + randomBase32(length - TIME_CHARS);
}

// The latest instants this process has stamped, so that stamps never repeat or go backwards.
let lastMs = 0;
let sequence = 0;
let lastMicros = 0;

/**
 * Forgets the stamps handed out so far, as a process that starts afresh would. Only the test
 * setup calls it: test files share a process, and each file's test clock starts at its own now.
 */
export function forgetIssuedStamps(): void {
  lastMs = 0;
  sequence = 0;
  lastMicros = 0;
}

/** Microsecond timestamps (an event's `created_at_us`) that never repeat or go backwards within this process. */
export function nowMicros(nowMs: number): number {
  const candidate = nowMs * 1000;
  lastMicros = candidate > lastMicros ? candidate : lastMicros + 1;
  return lastMicros;
}

/**
 * RFC 9562 UUID version 7, monotonic within this process (method 1: a 12-bit counter in
 * rand_a), so ids sort by creation and bulk inserts append to their index.
 */
export function uuidv7(nowMs: number = Date.now()): string {
  let ms = nowMs;
  if (ms <= lastMs) {
    ms = lastMs;
    sequence += 1;
    if (sequence > 0xfff) {
      ms += 1;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const bytes = Buffer.from(pooledRandomBytes(16));
  bytes.writeUInt32BE(Math.floor(ms / 0x10000), 0);
  bytes.writeUInt16BE(ms % 0x10000, 4);
  bytes.writeUInt16BE(0x7000 | sequence, 6);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Readable prefixed id such as `alloc_8f3k2m9q1x7c`. */
export const readableId = (prefix: string): string => `${prefix}_${randomBase32(16)}`;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isUuid = (value: string): boolean => UUID.test(value);
