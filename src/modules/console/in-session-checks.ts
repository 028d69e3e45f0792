import type { AppContext } from '../../context.js';
import { type ApiError, fail } from '../../http/errors.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './console.repo.js';
import type { ConsoleSession } from './sessions.service.js';
import { assertNotThrottled, clearAccount, recordFailure, subjectsOf } from './throttle.service.js';

/**
 * Wrong answers one session may give to the checks inside it (current password, authenticator
 * or recovery code) before it ends: the third ends it. Someone holding a stolen session gets
 * two guesses, then must sign in again, where the sign-in throttle and the password stand.
 */
export const SESSION_FAILURE_LIMIT = 3;

export type CheckedWith = 'password' | 'totp' | 'recovery_code';

/**
 * Runs a check of something only the user should know, from inside a signed-in session. It is
 * throttled as a sign-in (the same counts per account and per address, the same 429 with
 * Retry-After), every failure is audited, and the SESSION_FAILURE_LIMIT-th failure ends the
 * session with 401 (`details.reason: "session_ended"`); a success clears the account's count as
 * a sign-in does.
 */
export async function checkInSession(
  ctx: AppContext,
  session: ConsoleSession,
  address: string | null,
  check: { with: CheckedWith; during: string; passes: () => Promise<boolean>; wrong: () => ApiError },
): Promise<void> {
  const subjects = subjectsOf(ctx, session.email, address);
  await assertNotThrottled(ctx, subjects);
  if (await check.passes()) {
    await clearAccount(ctx, subjects);
    return;
  }
  await recordFailure(ctx, subjects);
  const failures = await repo.addSessionFailure(ctx.db, session.idHash);
  const ended = failures >= SESSION_FAILURE_LIMIT;
  if (ended) await repo.deleteSession(ctx.db, session.idHash);
  await recordAudit(
    ctx,
    {
      companyId: session.companyId,
      actor: `user:${session.email}`,
      source: 'console',
      action: 'user.check_failed',
      target: session.email,
      detail: { factor: check.with, during: check.during, sessionEnded: ended },
    },
    ctx.db,
  );
  if (ended) {
    throw fail('UNAUTHORIZED', 'Too many wrong answers: this session has ended. Sign in again.', {
      reason: 'session_ended',
    });
  }
  throw check.wrong();
}
