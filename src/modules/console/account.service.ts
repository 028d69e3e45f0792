import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { recordAudit } from '../audit/index.js';
import * as repo from './console.repo.js';
import { checkInSession } from './in-session-checks.js';
import { checkNewPassword } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { issueRecoveryCodes, recoveryCodesLeft } from './recovery-codes.js';
import { requireFactor, type SecondFactorProof, spendSecondFactor } from './second-factor.js';
import { type ConsoleSession, openSession } from './sessions.service.js';
import { newTotpSecret, openTotp, sealTotp, totpStepOf, totpUri } from './totp.js';

const wrongCode = () =>
  fail('VALIDATION_FAILED', 'The code does not match or was used already; check the time on your device.', {
    issues: [{ field: 'code', in: 'body', message: 'does not match', keyword: 'totp' }],
  });

const wrongProof = (proof: SecondFactorProof) =>
  proof.recoveryCode === undefined
    ? wrongCode()
    : fail('VALIDATION_FAILED', 'The recovery code is not right or was used already.', {
        issues: [{ field: 'recoveryCode', in: 'body', message: 'does not match', keyword: 'recoveryCode' }],
      });

const totpIsOff = () =>
  fail('VALIDATION_FAILED', 'Two-factor sign-in is off.', {
    issues: [{ field: 'totp', in: 'body', message: 'not enabled', keyword: 'state' }],
  });

const actorOf = (session: ConsoleSession) => `user:${session.email}`;

async function userOf(ctx: AppContext, session: ConsoleSession) {
  const user = await repo.findUserOfCompany(ctx.db, session.companyId, session.userId);
  if (!user) throw fail('UNAUTHORIZED', 'Sign in again.');
  return user;
}

/**
 * A new password ends every session of the user, this one included; a fresh one is returned.
 * The current password is a guarded check (in-session-checks.ts).
 */
export async function changePassword(
  ctx: AppContext,
  session: ConsoleSession,
  address: string | null,
  passwords: { current: string; next: string },
) {
  await checkNewPassword(passwords.next, {
    field: 'newPassword',
    email: session.email,
    companyName: session.companyName,
  });
  const user = await userOf(ctx, session);
  await checkInSession(ctx, session, address, {
    with: 'password',
    during: 'password_change',
    passes: () => verifyPassword(user.password_hash, passwords.current),
    wrong: () =>
      fail('VALIDATION_FAILED', 'The current password is not right.', {
        issues: [{ field: 'currentPassword', in: 'body', message: 'does not match', keyword: 'password' }],
      }),
  });
  const hashed = await hashPassword(passwords.next);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, user.id, { password_hash: hashed, password_changed_at: now });
    await repo.deleteSessionsOfUser(trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: user.company_id,
        actor: actorOf(session),
        source: 'console',
        action: 'user.password_changed',
        target: user.email,
      },
      trx,
    );
  });
  return openSession(ctx, user.id);
}

/** Starts enrolment: a new secret, kept sealed, that counts only once a code from it is confirmed. */
export async function startTotp(ctx: AppContext, session: ConsoleSession) {
  const user = await userOf(ctx, session);
  if (user.totp_enabled_at !== null) {
    throw fail('VALIDATION_FAILED', 'Two-factor sign-in is already on.', {
      issues: [{ field: 'totp', in: 'body', message: 'already enabled', keyword: 'state' }],
    });
  }
  const secret = newTotpSecret();
  // The used steps belong to the secret: a new one starts afresh (its codes are all different).
  await repo.updateUser(ctx.db, user.id, { totp_secret: sealTotp(ctx, secret), totp_last_step: 0 });
  return { secret, uri: totpUri(secret, user.email) };
}

/**
 * Turns the second factor on with a code from the new secret; that code's step counts as used,
 * so it cannot sign in afterwards. Returns the first recovery codes, shown this once.
 */
export async function confirmTotp(ctx: AppContext, session: ConsoleSession, code: string) {
  const user = await userOf(ctx, session);
  if (user.totp_enabled_at !== null || !user.totp_secret) {
    throw fail('VALIDATION_FAILED', 'Start two-factor enrolment first.', {
      issues: [{ field: 'code', in: 'body', message: 'no enrolment in progress', keyword: 'state' }],
    });
  }
  const step = totpStepOf(ctx, openTotp(ctx, user.totp_secret), code);
  if (step === null || !(await repo.claimTotpStep(ctx.db, user.id, step))) throw wrongCode();
  return ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, user.id, { totp_enabled_at: ctx.clock.now() });
    const recoveryCodes = await issueRecoveryCodes(ctx, trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: user.company_id,
        actor: actorOf(session),
        source: 'console',
        action: 'user.totp_enabled',
        target: user.email,
      },
      trx,
    );
    return { recoveryCodes };
  });
}

/** Turning the second factor off takes a code or a recovery code (a guarded check); the recovery codes go with it. */
export async function disableTotp(
  ctx: AppContext,
  session: ConsoleSession,
  address: string | null,
  proof: SecondFactorProof,
) {
  const factor = requireFactor(proof);
  const user = await userOf(ctx, session);
  if (await repo.requireTotpOf(ctx.db, session.companyId)) {
    throw fail('FORBIDDEN', 'Your company requires two-factor sign-in; an owner can lift that.', {
      reason: 'totp_required',
    });
  }
  if (user.totp_enabled_at === null || !user.totp_secret) return;
  await checkInSession(ctx, session, address, {
    with: factor,
    during: 'totp_disable',
    passes: () => spendSecondFactor(ctx, user, proof),
    wrong: () => wrongProof(proof),
  });
  await ctx.db.transaction().execute(async (trx) => {
    await repo.clearSecondFactor(trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: user.company_id,
        actor: actorOf(session),
        source: 'console',
        action: 'user.totp_disabled',
        target: user.email,
      },
      trx,
    );
  });
}

/** The count of unused recovery codes; null while two-factor sign-in is off. */
export async function recoveryCodeStatus(ctx: AppContext, session: ConsoleSession) {
  const user = await userOf(ctx, session);
  return { left: user.totp_enabled_at === null ? null : await recoveryCodesLeft(ctx, user.id) };
}

/** A new set of recovery codes for a code or a recovery code (a guarded check); the old set stops working. */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  session: ConsoleSession,
  address: string | null,
  proof: SecondFactorProof,
) {
  const factor = requireFactor(proof);
  const user = await userOf(ctx, session);
  if (user.totp_enabled_at === null || !user.totp_secret) throw totpIsOff();
  await checkInSession(ctx, session, address, {
    with: factor,
    during: 'recovery_codes',
    passes: () => spendSecondFactor(ctx, user, proof),
    wrong: () => wrongProof(proof),
  });
  return ctx.db.transaction().execute(async (trx) => {
    const recoveryCodes = await issueRecoveryCodes(ctx, trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: user.company_id,
        actor: actorOf(session),
        source: 'console',
        action: 'user.recovery_codes_regenerated',
        target: user.email,
      },
      trx,
    );
    return { recoveryCodes, left: recoveryCodes.length };
  });
}

export async function setCompanyTotpRequirement(ctx: AppContext, session: ConsoleSession, required: boolean) {
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setRequireTotp(trx, session.companyId, required, ctx.clock.now());
    await recordAudit(
      ctx,
      {
        companyId: session.companyId,
        actor: actorOf(session),
        source: 'console',
        action: required ? 'company.totp_required' : 'company.totp_optional',
      },
      trx,
    );
  });
}

export const companyRequiresTotp = (ctx: AppContext, companyId: string) =>
  repo.requireTotpOf(ctx.db, companyId);

/** Sign-out everywhere: every session of this user ends, on every process (they are rows). */
export async function signOutEverywhere(ctx: AppContext, session: ConsoleSession) {
  await repo.deleteSessionsOfUser(ctx.db, session.userId);
  await recordAudit(
    ctx,
    {
      companyId: session.companyId,
      actor: actorOf(session),
      source: 'console',
      action: 'user.signed_out_everywhere',
      target: session.email,
    },
    ctx.db,
  );
}
