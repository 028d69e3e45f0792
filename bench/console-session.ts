import type { buildApp } from '../src/app.js';
import type { AppContext } from '../src/context.js';
import { inviteUser } from '../src/modules/console/users.service.js';

type App = Awaited<ReturnType<typeof buildApp>>;
export type ConsoleSession = { cookie: string; csrf: string };

/** An owner of `sellerId` signed in to the console, on production data: cookie and CSRF token. */
export async function consoleSession(ctx: AppContext, app: App, sellerId: string): Promise<ConsoleSession> {
  const invite = await inviteUser(ctx, {
    companyId: sellerId,
    email: 'bench-owner@example.com',
    role: 'owner',
    invitedBy: 'operator',
    source: 'cli',
  });
  const accepted = await app.inject({
    method: 'POST',
    url: '/console/api/invites/accept',
    payload: { token: invite.link.split('#')[1], password: 'a long bench passphrase' },
  });
  const cookie = String(accepted.headers['set-cookie']).split(';')[0]!;
  const session = await app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie } });
  const switched = await app.inject({
    method: 'PUT',
    url: '/console/api/environment',
    headers: { cookie, 'x-csrf-token': session.json().data.csrfToken },
    payload: { environment: 'production' },
  });
  if (switched.statusCode !== 200) throw new Error(`console session: ${switched.body.slice(0, 200)}`);
  return { cookie, csrf: session.json().data.csrfToken as string };
}
