/**
 * When a failed delivery is tried again (docs/events.md): after the first attempt fails, the
 * waits below, each with +-10% jitter, about 3.5 days in all; after the 11th attempt the
 * delivery is failed. A 429 or 503 with Retry-After waits at least that long (capped at 24 h),
 * never less than the schedule. Times are on the service clock.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.1;
export const RETRY_AFTER_CAP_MS = 24 * HOUR;

/** The due time of the next attempt after `attempts` failed ones, or null when none is left. */
export function nextAttemptAt(
  now: number,
  attempts: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attempts - 1]!;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds * SECOND, RETRY_AFTER_CAP_MS);
  return now + Math.max(jittered, asked);
}
