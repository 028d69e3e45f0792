/**
 * Driver errors that say the store was unable to answer for a while (a connection lost, a
 * database restarting, a lock or a disk), not that the request is wrong. They answer 503
 * STORE_UNAVAILABLE with Retry-After, and release the request's Idempotency-Key claim.
 */
/** The database rolled a transaction back to break a lock cycle or a serialization conflict. */
const LOCK_CYCLE_CODES = [
  '40001', // serialization_failure
  '40P01', // deadlock_detected
];

const TRANSIENT_CODES = new Set([
  ...LOCK_CYCLE_CODES,
  '55P03', // lock_not_available
  '53300', // too_many_connections
  '53100', // disk_full
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

const TRANSIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection is closed|Client was closed|Reached the max retries per request/;

export function isTransientStoreError(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  // Node's connect to a name with several addresses fails with every attempt's error.
  if (err instanceof AggregateError) return err.errors.some(isTransientStoreError);
  const { code, message, name } = err as { code?: unknown; message?: unknown; name?: unknown };
  const text = typeof code === 'string' ? code : '';
  // Class 08: connection exception; class 57P: the server shut down or is starting up.
  if (TRANSIENT_CODES.has(text) || text.startsWith('08') || text.startsWith('57P')) return true;
  if (text.startsWith('SQLITE_BUSY') || text.startsWith('SQLITE_IOERR')) return true;
  if (name === 'MaxRetriesPerRequestError') return true;
  return typeof message === 'string' && TRANSIENT_MESSAGES.test(message);
}

/**
 * The database rolled the whole transaction back to break a lock cycle (deadlock) or a
 * serialization conflict: nothing of it was written, and the same work run again may pass.
 */
export function isLockCycle(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && LOCK_CYCLE_CODES.includes(code);
}

/**
 * Runs `work`, and again while the database rolls it back to break a lock cycle (`isLockCycle`),
 * `runs` times in all; `onAgain` hears each run after the first. `work` must be one whole
 * transaction (or statement) of its own, so that a rolled-back run left nothing behind.
 */
export async function throughLockCycles<T>(
  runs: number,
  work: () => Promise<T>,
  onAgain: () => void,
): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await work();
    } catch (err) {
      if (run >= runs || !isLockCycle(err)) throw err;
      onAgain();
    }
  }
}
