import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { uuidv7 } from '../../lib/ids.js';
import { recordAudit } from '../audit/index.js';
import { getCompany } from '../companies/index.js';
import { inviteMail, mailInBackground } from '../mail/index.js';
import * as repo from './console.repo.js';
import { ROLES, type Role } from './console.table.js';
import { checkNewPassword, checkPasswordLength } from './password-policy.js';
import { hashPassword } from './passwords.js';
import { type ConsoleSession, openSession } from './sessions.service.js';

/** An invite link works once, for 72 hours. */
export const INVITE_TTL_MS = 72 * 3600_000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;

const validation = (field: string, message: string, keyword: string) =>
  fail('VALIDATION_FAILED', `${field} ${message}.`, { issues: [{ field, in: 'body', message, keyword }] });

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized)) throw validation('email', 'must be an email address', 'format');
  return normalized;
}

export function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role))
    throw validation('role', `must be one of ${ROLES.join(', ')}`, 'enum');
  return role as Role;
}

export interface InviteInput {
  companyId: string;
  email: string;
  role: string;
  /** `operator` (the CLI) or `user:<email>` (an owner in the console). */
  invitedBy: string;
  source: 'console' | 'cli';
}

/**
 * Creates a one-time invite and returns its link; only the token's hash is stored. With an SMTP
 * server configured the link is also e-mailed to the invitee after the commit (`emailed`); a
 * failed send never fails the invite, which the inviter can still copy.
 */
export async function inviteUser(ctx: AppContext, input: InviteInput) {
  const company = await getCompany(ctx, input.companyId, ctx.db);
  if (!company) throw fail('NOT_FOUND', `Company ${input.companyId} does not exist.`);
  const email = normalizeEmail(input.email);
  const role = checkRole(input.role);
  const existing = await repo.findUserByEmail(ctx.db, email);
  // Only a member of the inviting company, whom its team list shows anyway, is refused here: an
  // address with an account elsewhere is invited like an unknown one, and acceptance settles it.
  if (existing && existing.removed_at === null && existing.company_id === company.id) {
    throw validation('email', 'already belongs to a user of this company', 'unique');
  }
  const now = ctx.clock.now();
  const token = randomToken(32);
  const id = uuidv7(now);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertInvite(trx, {
      token_hash: sha256Hex(token),
      id,
      company_id: company.id,
      email,
      role,
      invited_by: input.invitedBy,
      created_at: now,
      expires_at: now + INVITE_TTL_MS,
      used_at: null,
    });
    await recordAudit(
      ctx,
      {
        companyId: company.id,
        actor: input.invitedBy,
        source: input.source,
        action: 'user.invited',
        target: email,
        detail: { role },
      },
      trx,
    );
  });
  const expiresAt = new Date(now + INVITE_TTL_MS).toISOString();
  const link = `${ctx.config.publicUrl}/console/invite#${token}`;
  const emailed = mailInBackground(
    ctx,
    inviteMail({ to: email, companyName: company.name, role, invitedBy: input.invitedBy, link, expiresAt }),
  );
  return { id, email, role, expiresAt, link, emailed };
}

/** Looks up an open invite by its token (the page shows whom it is for before a password is set). */
export async function openInvite(ctx: AppContext, token: string) {
  const invite = await repo.findInvite(ctx.db, sha256Hex(token));
  if (!invite || invite.used_at !== null || invite.expires_at <= ctx.clock.now()) {
    throw fail('NOT_FOUND', 'This invite link is unknown, used or expired; ask for a new one.');
  }
  return invite;
}

/**
 * An address has one console account, in one company. Said only to whoever holds the invite
 * link, never to the inviter's invite call; the invite stays open, so the team page shows it
 * like any invite not yet taken up.
 */
function alreadyAUser(sameCompany: boolean) {
  const message = sameCompany
    ? 'This address already has an account in this company: sign in instead.'
    : 'This address already has a console account with another company, and an address belongs to one company only. Sign in there; to join this company, ask for an invite to another address, or to be removed from the other company first.';
  return fail('VALIDATION_FAILED', message, {
    issues: [{ field: 'email', in: 'body', message: 'already has a console account', keyword: 'unique' }],
  });
}

/**
 * Sets the invited user's password and signs them in; the invite is then spent. An address that
 * already has a live account is refused and the invite left unspent.
 */
export async function acceptInvite(ctx: AppContext, token: string, password: string) {
  checkPasswordLength(password, 'password');
  const invite = await openInvite(ctx, token);
  const company = await getCompany(ctx, invite.company_id, ctx.db);
  await checkNewPassword(password, {
    field: 'password',
    email: invite.email,
    companyName: company?.name ?? '',
  });
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now();
  const userId = uuidv7(now);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.useInvite(trx, invite.token_hash, now))) {
      throw fail('NOT_FOUND', 'This invite link is unknown, used or expired; ask for a new one.');
    }
    const existing = await repo.findUserByEmail(trx, invite.email);
    if (existing && existing.removed_at === null)
      throw alreadyAUser(existing.company_id === invite.company_id);
    if (existing) {
      await repo.deleteRecoveryCodesOfUser(trx, existing.id);
      await repo.deleteUser(trx, existing.id);
    }
    await repo.insertUser(trx, {
      id: userId,
      company_id: invite.company_id,
      email: invite.email,
      role: invite.role,
      password_hash: passwordHash,
      totp_secret: null,
      totp_enabled_at: null,
      totp_last_step: 0,
      password_changed_at: now,
      created_at: now,
      removed_at: null,
    });
    await recordAudit(
      ctx,
      {
        companyId: invite.company_id,
        actor: `user:${invite.email}`,
        source: 'console',
        action: 'user.joined',
        target: invite.email,
        detail: { role: invite.role },
      },
      trx,
    );
  });
  return openSession(ctx, userId);
}

export async function listTeam(ctx: AppContext, companyId: string) {
  const [users, invites] = await Promise.all([
    repo.listUsers(ctx.db, companyId),
    repo.listOpenInvites(ctx.db, companyId, ctx.clock.now()),
  ]);
  return {
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      role: u.role,
      totpEnabled: u.totp_enabled_at !== null,
      createdAt: new Date(u.created_at).toISOString(),
    })),
    invites: invites.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      expiresAt: new Date(i.expires_at).toISOString(),
    })),
  };
}

/** An owner changes a teammate's role; the last owner cannot step down. Sessions end so the change applies at once. */
export async function changeRole(ctx: AppContext, session: ConsoleSession, userId: string, role: string) {
  const next = checkRole(role);
  await ctx.db.transaction().execute(async (trx) => {
    const user = await repo.findUserOfCompany(trx, session.companyId, userId);
    if (!user) throw fail('NOT_FOUND', `User ${userId} not found.`);
    if (user.role === 'owner' && next !== 'owner') await assertAnotherOwner(trx, session.companyId, user.id);
    await repo.updateUser(trx, user.id, { role: next });
    await repo.deleteSessionsOfUser(trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: session.companyId,
        actor: `user:${session.email}`,
        source: 'console',
        action: 'user.role_changed',
        target: user.email,
        detail: { from: user.role, to: next },
      },
      trx,
    );
  });
}

export async function removeUser(ctx: AppContext, session: ConsoleSession, userId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await repo.findUserOfCompany(trx, session.companyId, userId);
    if (!user) throw fail('NOT_FOUND', `User ${userId} not found.`);
    if (user.role === 'owner') await assertAnotherOwner(trx, session.companyId, user.id);
    await repo.updateUser(trx, user.id, { removed_at: ctx.clock.now() });
    await repo.deleteSessionsOfUser(trx, user.id);
    await repo.deleteRecoveryCodesOfUser(trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: session.companyId,
        actor: `user:${session.email}`,
        source: 'console',
        action: 'user.removed',
        target: user.email,
      },
      trx,
    );
  });
}

/**
 * An owner clears a teammate's second factor (a lost phone and no recovery code left): the
 * secret and recovery codes go and the user's sessions end. They sign in with the password and
 * set it up again (at once, when the company requires it). One's own is turned off from Your
 * account, with a code.
 */
export async function resetSecondFactor(ctx: AppContext, session: ConsoleSession, userId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await repo.findUserOfCompany(trx, session.companyId, userId);
    if (!user) throw fail('NOT_FOUND', `User ${userId} not found.`);
    if (user.id === session.userId) {
      throw notResettable(
        'Your own two-factor sign-in is turned off from Your account, with a code.',
        'self',
      );
    }
    if (user.totp_enabled_at === null) {
      throw notResettable(`${user.email} has no two-factor sign-in to reset.`, 'state');
    }
    await repo.clearSecondFactor(trx, user.id);
    await repo.deleteSessionsOfUser(trx, user.id);
    await recordAudit(
      ctx,
      {
        companyId: session.companyId,
        actor: `user:${session.email}`,
        source: 'console',
        action: 'user.totp_reset',
        target: user.email,
      },
      trx,
    );
  });
}

const notResettable = (message: string, keyword: string) =>
  fail('VALIDATION_FAILED', message, {
    issues: [{ field: 'id', in: 'path', message: message.toLowerCase(), keyword }],
  });

async function assertAnotherOwner(
  trx: Parameters<typeof repo.listUsers>[0],
  companyId: string,
  leaving: string,
) {
  const owners = (await repo.listUsers(trx, companyId)).filter((u) => u.role === 'owner' && u.id !== leaving);
  if (owners.length === 0) {
    throw fail('VALIDATION_FAILED', 'A company keeps at least one owner.', {
      issues: [
        { field: 'role', in: 'body', message: 'the last owner cannot leave or step down', keyword: 'owner' },
      ],
    });
  }
}
