export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Unix seconds at which the current fixed window ends. */
  resetAtSec: number;
  /** 0 when allowed; otherwise whole seconds (>= 1) until one more request would be admitted. */
  retryAfterSec: number;
}

export interface RateLimitStore {
  /** Counts one request against `key` if allowed; a refused request is not counted. */
  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/**
 * Sliding-window counter: the previous fixed window counts in proportion to how much of it
 * still overlaps the sliding window. `estimate = current + floor(previous * (1 - elapsed))`.
 */
export function decide(
  current: number,
  previous: number,
  limit: number,
  windowMs: number,
  nowMs: number,
): RateLimitDecision & { counted: boolean } {
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  const elapsed = (nowMs - windowStart) / windowMs;
  const weightedPrevious = Math.floor(previous * (1 - elapsed));
  const estimate = current + weightedPrevious;
  const resetAtSec = Math.ceil((windowStart + windowMs) / 1000);
  if (estimate + 1 <= limit) {
    return {
      allowed: true,
      counted: true,
      limit,
      remaining: Math.max(0, limit - estimate - 1),
      resetAtSec,
      retryAfterSec: 0,
    };
  }
  return {
    allowed: false,
    counted: false,
    limit,
    remaining: 0,
    resetAtSec,
    retryAfterSec: retryAfter(current, previous, limit, windowMs, nowMs, windowStart),
  };
}

/** Seconds until the weighted estimate leaves room for one request (capped at one window). */
function retryAfter(
  current: number,
  previous: number,
  limit: number,
  windowMs: number,
  nowMs: number,
  windowStart: number,
): number {
  const windowEnd = windowStart + windowMs;
  let waitMs: number;
  if (current + 1 > limit) {
    // This window is full on its own: wait for the next one, where `current` becomes the
    // previous window and decays until floor(current * (1 - t)) + 1 <= limit.
    const fraction = Math.max(0, 1 - (limit - 1 + 1) / (current + 1));
    waitMs = windowEnd - nowMs + Math.ceil(fraction * windowMs);
  } else {
    // Room once floor(previous * (1 - t)) <= limit - 1 - current.
    const allowedPrevious = limit - 1 - current;
    const fraction = previous > 0 ? 1 - (allowedPrevious + 1) / previous : 0;
    waitMs = windowStart + Math.ceil(Math.max(0, fraction) * windowMs) - nowMs;
  }
  return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil(waitMs / 1000)));
}
