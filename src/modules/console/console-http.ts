import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { SellerScope } from '../../http/auth/principal.js';
import { resolveSellerScope } from '../../http/auth/seller-scope.js';
import { fail } from '../../http/errors.js';
import { type Capability, can } from './roles.js';
import { ABSOLUTE_MS, type ConsoleSession, checkCsrf, resolveSession } from './sessions.service.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `Secure` (and the `__Host-` name that demands it) everywhere but a local development URL. */
export function cookieIsSecure(ctx: AppContext): boolean {
  const url = new URL(ctx.config.publicUrl);
  return url.protocol === 'https:' || !LOCAL_HOSTS.has(url.hostname);
}

export const cookieName = (ctx: AppContext) =>
  cookieIsSecure(ctx) ? '__Host-sdapi_console' : 'sdapi_console';

export function readSessionCookie(ctx: AppContext, request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const name = cookieName(ctx);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, Path=/, Secure outside local development; cleared with Max-Age=0. */
export function setSessionCookie(ctx: AppContext, reply: FastifyReply, id: string | null): void {
  const parts = [
    `${cookieName(ctx)}=${id ?? ''}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${id ? Math.floor(ABSOLUTE_MS / 1000) : 0}`,
  ];
  if (cookieIsSecure(ctx)) parts.push('Secure');
  reply.header('set-cookie', parts.join('; '));
}

/**
 * Calls made before a session exists (sign-in, accepting an invite) must come from the console's
 * own pages: a browser sends Origin on every POST, and a cross-site one is refused. The JSON
 * body also needs a preflight that this listener never grants.
 */
export function checkSameOrigin(ctx: AppContext, request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const own = new URL(ctx.config.publicUrl).origin;
  const host = request.headers.host;
  const allowed =
    origin === own || (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`));
  if (!allowed)
    throw fail('FORBIDDEN', 'Console calls must come from the console itself.', { reason: 'origin' });
}

/** The config of a console call whose answer carries a secret (a token, a link, a game key). */
export const secretAnswer = { config: { auth: 'none', carriesSecret: true } } as const;

export interface SessionNeeds {
  capability?: Capability;
  /** Open while the company requires a second factor the user has not set up yet. */
  duringTotpEnrolment?: boolean;
}

/** The signed-in session of a console call, CSRF-checked for every method but GET. */
export async function requireSession(
  ctx: AppContext,
  request: FastifyRequest,
  needs: SessionNeeds = {},
): Promise<ConsoleSession> {
  const session = await resolveSession(ctx, readSessionCookie(ctx, request));
  if (!session) throw fail('UNAUTHORIZED', 'Sign in to the console.', { reason: 'session' });
  request.sessionCompanyId = session.companyId;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    checkSameOrigin(ctx, request);
    checkCsrf(session, request.headers['x-csrf-token']);
  }
  if (session.mustEnrolTotp && !needs.duringTotpEnrolment) {
    throw fail('FORBIDDEN', 'Your company requires two-factor sign-in: set it up first.', {
      reason: 'totp_enrolment',
    });
  }
  if (needs.capability && !can(session.role, needs.capability)) {
    throw fail('FORBIDDEN', `Your role (${session.role}) cannot do this; ask an owner.`, {
      reason: 'role',
      role: session.role,
    });
  }
  return session;
}

/**
 * The signed-in session of a console call that acts as the seller, and that seller: the
 * session's company in its environment, a sandbox seller provisioned on first use as for a key.
 */
export async function requireSellerSession(
  ctx: AppContext,
  request: FastifyRequest,
  needs: SessionNeeds = {},
): Promise<{ session: ConsoleSession; seller: SellerScope }> {
  const session = await requireSession(ctx, request, needs);
  return { session, seller: await resolveSellerScope(ctx, session) };
}
