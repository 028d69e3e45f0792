import type { Executor } from '../../db/database.js';
import { fail, isApiError } from '../errors.js';
import { holdClaim } from './idempotency.repo.js';
import type { Claim } from './record-key.js';

const REASON = 'claim_taken_over';

const claimTakenOver = () =>
  fail(
    'IDEMPOTENCY_REQUEST_IN_PROGRESS',
    'Another execution took this Idempotency-Key over; it answers the key.',
    { reason: REASON },
    { 'Retry-After': '1' },
  );

/** The refusal `fenceClaim` throws: a cart passes it on as it is, not as a line's refusal. */
export const isClaimTakenOver = (err: unknown) => isApiError(err) && err.details.reason === REASON;

/**
 * The fence of a keyed request's business transaction, its first statement: the writes commit
 * only while the request still holds its Idempotency-Key claim, and no other process can take
 * the claim over until that commit. A process judged dead by its heartbeat while it still runs
 * (a failover can make a live process look so) is thereby refused, never executed twice: its
 * transaction rolls back and the execution that took the claim over answers the key.
 */
export async function fenceClaim(trx: Executor, claim: Claim | null) {
  if (claim && !(await holdClaim(trx, claim))) throw claimTakenOver();
}
