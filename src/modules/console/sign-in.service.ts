import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './console.repo.js';
import { verifyPassword } from './passwords.js';
import { recoveryCodesLeft } from './recovery-codes.js';
import { type Factor, factorOf, spendSecondFactor } from './second-factor.js';
import { openSession } from './sessions.service.js';
import { assertNotThrottled, clearAccount, recordFailure, subjectsOf } from './throttle.service.js';

export interface SignInInput {
  email: string;
  password: string;
  totpCode?: string;
  /** In place of totpCode: one of the user's unused recovery codes. */
  recoveryCode?: string;
}

/** The one refusal for an unknown email, a wrong password or a wrong code: it never says which. */
const refused = () =>
  fail('UNAUTHORIZED', 'The email, password or code is not right.', { reason: 'credentials' });

/**
 * Checks the throttle, then the password (with the same argon2 work for unknown emails), then the
 * second factor; a success opens a fresh session and ends the one the browser came with.
 */
export async function signIn(ctx: AppContext, input: SignInInput, address: string | null) {
  // An empty field is no answer: the form may send one before the code is typed.
  const proof = { code: input.totpCode || undefined, recoveryCode: input.recoveryCode || undefined };
  const factor = factorOf(proof, 'totpCode');
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
  const secondFactor = user.totp_enabled_at !== null && user.totp_secret !== null;
  if (secondFactor) {
    if (!factor) {
      throw fail('UNAUTHORIZED', 'Enter the six-digit code of your authenticator app.', {
        reason: 'totp_required',
      });
    }
    // A code of a step already used (a replay) fails here like a wrong one.
    if (!(await spendSecondFactor(ctx, user, proof))) {
      await recordFailure(ctx, subjects);
      await auditFailure(ctx, user, factor);
      throw refused();
    }
  }
  await clearAccount(ctx, subjects);
  const session = await openSession(ctx, user.id);
  await recordAudit(
    ctx,
    {
      companyId: user.company_id,
      actor: `user:${user.email}`,
      source: 'console',
      action: 'user.signed_in',
      target: user.email,
      detail: await signedInDetail(ctx, user, secondFactor ? factor : null),
    },
    ctx.db,
  );
  return session;
}

async function signedInDetail(ctx: AppContext, user: repo.UserRow, factor: Factor | null) {
  if (factor !== 'recovery_code') return { secondFactor: factor !== null };
  return { secondFactor: true, recoveryCode: true, recoveryCodesLeft: await recoveryCodesLeft(ctx, user.id) };
}

const auditFailure = (ctx: AppContext, user: repo.UserRow, factor: 'password' | Factor) =>
  recordAudit(
    ctx,
    {
      companyId: user.company_id,
      actor: `user:${user.email}`,
      source: 'console',
      action: 'user.sign_in_failed',
      target: user.email,
      detail: { factor },
    },
    ctx.db,
  );
