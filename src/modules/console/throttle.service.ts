import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { sha256Hex } from '../../lib/crypto.js';
import * as repo from './signin-failures.repo.js';

/** Failures allowed before delays start, per account and per address. */
const FREE_FAILURES = { account: 5, address: 20 } as const;
const MAX_DELAY_MS = 15 * 60_000;
/** A subject with no failure for an hour starts afresh. */
const FORGET_AFTER_MS = 3600_000;

type Kind = keyof typeof FREE_FAILURES;

/** The throttle's subjects: hashes only, never the address or the email in clear. */
export function subjectsOf(ctx: AppContext, email: string, address: string | null): [Kind, string][] {
  const subjects: [Kind, string][] = [['account', `account:${sha256Hex(`console-account:${email}`)}`]];
  if (address) {
    const hashed =
      ctx.secrets?.fingerprint(`console-address:${address}`) ?? sha256Hex(`console-address:${address}`);
    subjects.push(['address', `address:${hashed}`]);
  }
  return subjects;
}

/** Refuses with 429 and Retry-After while any subject is inside its delay. */
export async function assertNotThrottled(ctx: AppContext, subjects: [Kind, string][]): Promise<void> {
  const now = ctx.clock.now();
  const until = await repo.blockedUntil(
    ctx.db,
    subjects.map(([, subject]) => subject),
  );
  if (until > now) {
    const seconds = Math.ceil((until - now) / 1000);
    throw fail(
      'RATE_LIMIT_EXCEEDED',
      `Too many failed sign-ins or checks; try again in ${seconds} s.`,
      { retryAfterSeconds: seconds },
      { 'retry-after': String(seconds) },
    );
  }
}

/** Counts a failure; past the free ones each further failure doubles the delay (1 s, 2 s, 4 s ... 15 min). */
export async function recordFailure(ctx: AppContext, subjects: [Kind, string][]): Promise<void> {
  const now = ctx.clock.now();
  for (const [kind, subject] of subjects) {
    const failures = await repo.countFailure(ctx.db, subject, now, now - FORGET_AFTER_MS);
    const excess = failures - FREE_FAILURES[kind];
    if (excess > 0) {
      const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.min(excess - 1, 20));
      await repo.blockSubject(ctx.db, subject, now + delay);
    }
  }
}

/** A successful sign-in clears its account's count (not the address's: one good password must not reset a spray). */
export async function clearAccount(ctx: AppContext, subjects: [Kind, string][]): Promise<void> {
  const account = subjects.find(([kind]) => kind === 'account');
  if (account) await repo.forgetSubject(ctx.db, account[1]);
}
