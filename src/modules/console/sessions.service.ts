import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/auth/principal.js';
import { fail } from '../../http/errors.js';
import { constantTimeEqual, randomToken, sha256Hex } from '../../lib/crypto.js';
import type { Environment } from '../../lib/environment.js';
import * as repo from './console.repo.js';
import type { Role } from './console.table.js';
import { scopesOf } from './roles.js';

/** A session ends after 30 minutes without a request, and 12 hours after sign-in at the latest. */
export const IDLE_MS = 30 * 60_000;
export const ABSOLUTE_MS = 12 * 3600_000;
/** last_seen_at is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface ConsoleSession {
  idHash: string;
  csrfToken: string;
  environment: Environment;
  userId: string;
  email: string;
  role: Role;
  companyId: string;
  companyName: string;
  productionAccess: boolean;
  totpEnabled: boolean;
  /** The company requires a second factor and this user has none yet: only enrolment is open. */
  mustEnrolTotp: boolean;
  expiresAt: number;
}

/** A fresh session for a user (sign-in, accepted invite): a new id every time, so no fixation. */
export async function openSession(ctx: AppContext, userId: string): Promise<{ id: string }> {
  const now = ctx.clock.now();
  const id = randomToken(32);
  await repo.insertSession(ctx.db, {
    id_hash: sha256Hex(id),
    user_id: userId,
    csrf_token: randomToken(24),
    environment: 'sandbox',
    created_at: now,
    last_seen_at: now,
    expires_at: now + ABSOLUTE_MS,
    failed_checks: 0,
  });
  return { id };
}

export async function closeSession(ctx: AppContext, id: string | undefined): Promise<void> {
  if (id) await repo.deleteSession(ctx.db, sha256Hex(id));
}

/** The live session behind a cookie id, or null (unknown, idle too long, past its end, user removed). */
export async function resolveSession(
  ctx: AppContext,
  id: string | undefined,
): Promise<ConsoleSession | null> {
  if (!id || id.length > 100) return null;
  const idHash = sha256Hex(id);
  const row = await repo.findSessionWithUser(ctx.db, idHash);
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.removed_at !== null || row.expires_at <= now || row.last_seen_at + IDLE_MS <= now) {
    await repo.deleteSession(ctx.db, idHash);
    return null;
  }
  if (now - row.last_seen_at >= TOUCH_EVERY_MS) await repo.touchSession(ctx.db, idHash, now);
  return {
    idHash,
    csrfToken: row.csrf_token,
    environment: row.environment,
    userId: row.user_id,
    email: row.email,
    role: row.role,
    companyId: row.company_id,
    companyName: row.company_name,
    productionAccess: row.production_access === 1,
    totpEnabled: row.totp_enabled_at !== null,
    mustEnrolTotp: row.require_totp === 1 && row.totp_enabled_at === null,
    expiresAt: Math.min(row.expires_at, now + IDLE_MS),
  };
}

/** Refuses a state-changing call whose X-CSRF-Token header is not this session's token. */
export function checkCsrf(session: ConsoleSession, header: string | string[] | undefined): void {
  const given = typeof header === 'string' ? header : '';
  if (!given || !constantTimeEqual(given, session.csrfToken)) {
    throw fail('FORBIDDEN', 'This console call needs the X-CSRF-Token header of the signed-in session.', {
      reason: 'csrf',
    });
  }
}

export async function switchEnvironment(ctx: AppContext, session: ConsoleSession, environment: Environment) {
  await repo.setSessionEnvironment(ctx.db, session.idHash, environment);
}

/**
 * The principal a console call acts as: the company and environment of the session, the role's
 * scopes, no allowlist (the session is the gate). keyId names the user, so records that keep
 * "who" point at a person.
 */
export function principalOfSession(session: ConsoleSession): Principal {
  return {
    keyId: `user:${session.userId}`,
    keyName: session.email,
    companyId: session.companyId,
    companyName: session.companyName,
    environment: session.environment,
    scopes: scopesOf(session.role),
    allowedIps: null,
    expiresAt: null,
    productionAccess: session.productionAccess,
    legacy: false,
  };
}
