import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { recordAudit } from './audit.service.js';
import * as repo from './console.repo.js';
import { verifyPassword } from './passwords.js';
import { openSession } from './sessions.service.js';
import { assertNotThrottled, clearAccount, recordFailure, subjectsOf } from './throttle.service.js';
import { openTotp, totpMatches } from './totp.js';

export interface SignInInput {
  email: string;
  password: string;
  totpCode?: string;
}

/** The one refusal for an unknown email, a wrong password or a wrong code: it never says which. */
const refused = () =>
  fail('UNAUTHORIZED', 'The email, password or code is not right.', { reason: 'credentials' });

/**
 * Checks the throttle, then the password (with the same argon2 work for unknown emails), then the
 * second factor; a success opens a fresh session and ends the one the browser came with.
 */
export async function signIn(ctx: AppContext, input: SignInInput, address: string | null) {
  const email = input.email.trim().toLowerCase();
  const subjects = subjectsOf(ctx, email, address);
  await assertNotThrottled(ctx, subjects);
  const found = await repo.findUserByEmail(ctx.db, email);
  const user = found && found.removed_at === null ? found : undefined;
  const passwordOk = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !passwordOk) {
    await recordFailure(ctx, subjects);
    if (user) await auditFailure(ctx, user, 'password');
    throw refused();
  }
  if (user.totp_enabled_at !== null && user.totp_secret) {
    if (!input.totpCode) {
      throw fail('UNAUTHORIZED', 'Enter the six-digit code of your authenticator app.', {
        reason: 'totp_required',
      });
    }
    if (!totpMatches(ctx, openTotp(ctx, user.totp_secret), input.totpCode)) {
      await recordFailure(ctx, subjects);
      await auditFailure(ctx, user, 'totp');
      throw refused();
    }
  }
  await clearAccount(ctx, subjects);
  const session = await openSession(ctx, user.id);
  await recordAudit(ctx, {
    companyId: user.company_id,
    actor: `user:${user.email}`,
    source: 'console',
    action: 'user.signed_in',
    target: user.email,
    detail: { secondFactor: user.totp_enabled_at !== null },
  });
  return session;
}

const auditFailure = (ctx: AppContext, user: repo.UserRow, factor: 'password' | 'totp') =>
  recordAudit(ctx, {
    companyId: user.company_id,
    actor: `user:${user.email}`,
    source: 'console',
    action: 'user.sign_in_failed',
    target: user.email,
    detail: { factor },
  });
