import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { recordAudit } from './audit.service.js';
import * as repo from './console.repo.js';
import { checkNewPassword } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { type ConsoleSession, openSession } from './sessions.service.js';
import { newTotpSecret, openTotp, sealTotp, totpMatches, totpUri } from './totp.js';

const wrongCode = () =>
  fail('VALIDATION_FAILED', 'The code does not match; check the time on your device.', {
    issues: [{ field: 'code', in: 'body', message: 'does not match', keyword: 'totp' }],
  });

const actorOf = (session: ConsoleSession) => `user:${session.email}`;

async function userOf(ctx: AppContext, session: ConsoleSession) {
  const user = await repo.findUserOfCompany(ctx.db, session.companyId, session.userId);
  if (!user) throw fail('UNAUTHORIZED', 'Sign in again.');
  return user;
}

/** A new password ends every session of the user, this one included; a fresh one is returned. */
export async function changePassword(
  ctx: AppContext,
  session: ConsoleSession,
  current: string,
  next: string,
) {
  await checkNewPassword(next, {
    field: 'newPassword',
    email: session.email,
    companyName: session.companyName,
  });
  const user = await userOf(ctx, session);
  if (!(await verifyPassword(user.password_hash, current))) {
    throw fail('VALIDATION_FAILED', 'The current password is not right.', {
      issues: [{ field: 'currentPassword', in: 'body', message: 'does not match', keyword: 'password' }],
    });
  }
  const hashed = await hashPassword(next);
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
  await repo.updateUser(ctx.db, user.id, { totp_secret: sealTotp(ctx, secret) });
  return { secret, uri: totpUri(secret, user.email) };
}

export async function confirmTotp(ctx: AppContext, session: ConsoleSession, code: string) {
  const user = await userOf(ctx, session);
  if (user.totp_enabled_at !== null || !user.totp_secret) {
    throw fail('VALIDATION_FAILED', 'Start two-factor enrolment first.', {
      issues: [{ field: 'code', in: 'body', message: 'no enrolment in progress', keyword: 'state' }],
    });
  }
  if (!totpMatches(ctx, openTotp(ctx, user.totp_secret), code)) throw wrongCode();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, user.id, { totp_enabled_at: ctx.clock.now() });
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
  });
}

export async function disableTotp(ctx: AppContext, session: ConsoleSession, code: string) {
  const user = await userOf(ctx, session);
  if (await repo.requireTotpOf(ctx.db, session.companyId)) {
    throw fail('FORBIDDEN', 'Your company requires two-factor sign-in; an owner can lift that.', {
      reason: 'totp_required',
    });
  }
  if (user.totp_enabled_at === null || !user.totp_secret) return;
  if (!totpMatches(ctx, openTotp(ctx, user.totp_secret), code)) throw wrongCode();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, user.id, { totp_enabled_at: null, totp_secret: null });
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
  await recordAudit(ctx, {
    companyId: session.companyId,
    actor: actorOf(session),
    source: 'console',
    action: 'user.signed_out_everywhere',
    target: session.email,
  });
}
