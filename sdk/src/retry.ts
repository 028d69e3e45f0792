import { IDEMPOTENT_OPERATIONS } from './generated.js';

export interface RetryOptions {
  /** Attempts per call, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** First backoff when the answer names no Retry-After (default 250 ms, doubling, full jitter). */
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is returned (default 30 s). */
  maxRetryAfterMs?: number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Refusals that promise nothing ran: come back after Retry-After (rate limit, request in flight). */
const NOT_RUN_STATUSES = new Set([409, 429, 503]);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/**
 * May this call be sent again? A read always; a mutation only when the service deduplicates it by
 * its Idempotency-Key (the operations the document declares it on). Never blindly otherwise.
 */
export const isRetrySafe = (method: string, schemaPath: string | undefined) =>
  SAFE_METHODS.has(method) ||
  (schemaPath !== undefined && IDEMPOTENT_OPERATIONS.has(`${method} ${schemaPath}`));

/** Milliseconds the answer asks to wait (Retry-After seconds or an HTTP date), or null. */
export function retryAfterMs(response: Response, nowMs = Date.now()): number | null {
  const value = response.headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** The wait before the next attempt, or null when this outcome must not be retried. */
export function nextDelay(
  outcome: Response | Error,
  retrySafe: boolean,
  attempt: number,
  options: Required<RetryOptions>,
): number | null {
  if (attempt >= options.maxAttempts) return null;
  const backoff = () => Math.random() * options.baseDelayMs * 2 ** (attempt - 1);
  if (outcome instanceof Error) {
    // A network failure or timeout: the request may have run. Only a deduplicated call goes again.
    return retrySafe && outcome.name !== 'AbortError' ? backoff() : null;
  }
  const asked = retryAfterMs(outcome);
  if (asked !== null && NOT_RUN_STATUSES.has(outcome.status)) {
    return asked <= options.maxRetryAfterMs ? asked : null;
  }
  if (TRANSIENT_STATUSES.has(outcome.status) && retrySafe) return asked ?? backoff();
  return null;
}
