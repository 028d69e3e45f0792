import { randomBase32 } from '../src/lib/ids.js';
import { currentTotp } from '../src/modules/console/totp.js';
import { inviteUser } from '../src/modules/console/users.service.js';
import { makeSeller, type TestSeller } from './factories.js';
import type { TestApp } from './harness.js';
import { call } from './route-contract.js';

export const CONSOLE_API = '/console/api';
export const PASSWORD = 'correct horse battery staple';

/** A signed-in console user: the cookie and CSRF token a browser would hold. */
export interface ConsoleUser {
  email: string;
  cookie: string;
  csrf: string;
  seller: TestSeller;
  userId: string;
}

export const cookieOf = (setCookie: string | string[] | undefined): string => {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  return (first ?? '').split(';')[0] ?? '';
};

/** GET /session with a cookie: its CSRF token and user, or the failure. */
export async function sessionOf(t: TestApp, cookie: string) {
  return call(t, { method: 'GET', url: `${CONSOLE_API}/session`, headers: { cookie } });
}

/** Invites (as the operator) and accepts: a signed-in user of a company (a fresh seller unless given). */
export async function consoleUser(
  t: TestApp,
  role: 'owner' | 'developer' | 'finance' | 'viewer' = 'owner',
  seller?: TestSeller,
): Promise<ConsoleUser> {
  const company = seller ?? (await makeSeller(t));
  const email = `${role}-${randomBase32(6).toLowerCase()}@example.com`;
  const invite = await inviteUser(t.ctx, {
    companyId: company.company.id,
    email,
    role,
    invitedBy: 'operator',
    source: 'cli',
  });
  const token = invite.link.split('#')[1]!;
  const accepted = await call(t, {
    method: 'POST',
    url: `${CONSOLE_API}/invites/accept`,
    payload: { token, password: PASSWORD },
  });
  if (accepted.status !== 204) throw new Error(`accept failed: ${accepted.raw}`);
  const cookie = cookieOf(accepted.headers['set-cookie']);
  const session = await sessionOf(t, cookie);
  return {
    email,
    cookie,
    csrf: session.body.data.csrfToken,
    seller: company,
    userId: session.body.data.user.id,
  };
}

/** A console call as the user, with the CSRF header on every method but GET. */
export function consoleCall(t: TestApp, user: ConsoleUser, method: string, path: string, payload?: unknown) {
  return call(t, {
    method: method as 'GET',
    url: `${CONSOLE_API}${path}`,
    headers: { cookie: user.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': user.csrf }) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/**
 * Turns two-factor sign-in on for the user with a code from the secret the console shows; the
 * recovery codes the confirmation answered with. The code's step is used from then on.
 */
export async function enrolTotp(t: TestApp, user: ConsoleUser) {
  const started = await consoleCall(t, user, 'POST', '/totp/start');
  if (started.status !== 200) throw new Error(`totp start failed: ${started.raw}`);
  const secret = started.body.data.secret as string;
  const confirmed = await consoleCall(t, user, 'POST', '/totp/confirm', {
    code: currentTotp(secret, t.ctx.clock.now()),
  });
  if (confirmed.status !== 200) throw new Error(`totp confirm failed: ${confirmed.raw}`);
  return { secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[], confirmed };
}

/** POST /sign-in as a browser would (no cookie), with the second factor's fields in `extra`. */
export const signInCall = (
  t: TestApp,
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
) => call(t, { method: 'POST', url: `${CONSOLE_API}/sign-in`, payload: { email, password, ...extra } });
