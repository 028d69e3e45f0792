import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { sha256Hex } from '../../lib/crypto.js';

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
  const rows = await ctx.db
    .selectFrom('console_signin_failures')
    .select(['blocked_until'])
    .where(
      'subject',
      'in',
      subjects.map(([, s]) => s),
    )
    .execute();
  const until = Math.max(0, ...rows.map((row) => row.blocked_until));
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
    await ctx.db
      .insertInto('console_signin_failures')
      .values({ subject, failures: 1, last_failure_at: now, blocked_until: 0 })
      .onConflict((oc) =>
        oc.column('subject').doUpdateSet({
          failures: sql`case when console_signin_failures.last_failure_at < ${now - FORGET_AFTER_MS}
            then 1 else console_signin_failures.failures + 1 end`,
          last_failure_at: now,
        }),
      )
      .execute();
    const row = await ctx.db
      .selectFrom('console_signin_failures')
      .select('failures')
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
    const excess = row.failures - FREE_FAILURES[kind];
    if (excess > 0) {
      const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.min(excess - 1, 20));
      await ctx.db
        .updateTable('console_signin_failures')
        .set({ blocked_until: now + delay })
        .where('subject', '=', subject)
        .execute();
    }
  }
}

/** A successful sign-in clears its account's count (not the address's: one good password must not reset a spray). */
export async function clearAccount(ctx: AppContext, subjects: [Kind, string][]): Promise<void> {
  const account = subjects.find(([kind]) => kind === 'account');
  if (account) await ctx.db.deleteFrom('console_signin_failures').where('subject', '=', account[1]).execute();
}
