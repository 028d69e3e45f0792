import { describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  consoleCall,
  consoleUser,
  cookieOf,
  PASSWORD,
  sessionOf,
} from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { currentTotp } from './totp.js';

const t = useTestApp();

const signIn = (
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) =>
  call(t, { method: 'POST', url: `${CONSOLE_API}/sign-in`, payload: { email, password, ...extra }, headers });

describe('console sign-in and sessions', () => {
  it('accepts an invite once: sets an HttpOnly SameSite=Lax cookie and stores the user with an argon2id hash', async () => {
    const user = await consoleUser(t, 'owner');
    const row = await t.ctx.db
      .selectFrom('console_users')
      .selectAll()
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.role).toBe('owner');
    const again = await sessionOf(t, user.cookie);
    expect(again.body.data).toMatchObject({
      user: { email: user.email, role: 'owner' },
      environment: 'sandbox',
    });
    const sessions = await t.ctx.db
      .selectFrom('console_sessions')
      .selectAll()
      .where('user_id', '=', row.id)
      .execute();
    expect(sessions).toHaveLength(1);
    // Only the hash of the cookie's id is stored.
    expect(sessions[0]!.id_hash).not.toBe(user.cookie.split('=')[1]);
  });

  it('refuses a password under 12 characters and a spent invite link', async () => {
    const { inviteUser } = await import('./users.service.js');
    const owner = await consoleUser(t, 'owner');
    const invite = await inviteUser(t.ctx, {
      companyId: owner.seller.company.id,
      email: 'short@example.com',
      role: 'viewer',
      invitedBy: 'operator',
      source: 'cli',
    });
    const token = invite.link.split('#')[1]!;
    const short = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/invites/accept`,
      payload: { token, password: 'elevenchars' },
    });
    expectApiError(short, 422, 'VALIDATION_FAILED');
    const ok = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/invites/accept`,
      payload: { token, password: PASSWORD },
    });
    expect(ok.status).toBe(204);
    const twice = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/invites/accept`,
      payload: { token, password: PASSWORD },
    });
    expectApiError(twice, 404, 'NOT_FOUND');
  });

  it('answers an unknown email exactly as a wrong password, and audits the failed sign-in', async () => {
    const user = await consoleUser(t, 'developer');
    const unknown = await signIn('nobody-here@example.com', 'whatever password');
    const wrong = await signIn(user.email, 'wrong password!!');
    expectApiError(unknown, 401, 'UNAUTHORIZED');
    expectApiError(wrong, 401, 'UNAUTHORIZED');
    expect(unknown.body.message).toBe(wrong.body.message);
    expect(unknown.body.details).toEqual(wrong.body.details);
    const audit = await t.ctx.db
      .selectFrom('console_audit')
      .selectAll()
      .where('company_id', '=', user.seller.company.id)
      .where('action', '=', 'user.sign_in_failed')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('renews the session id at sign-in and ends the one the browser came with (no fixation)', async () => {
    const user = await consoleUser(t, 'viewer');
    const fresh = await signIn(user.email, PASSWORD, {}, { cookie: user.cookie });
    expect(fresh.status).toBe(204);
    const cookie = cookieOf(fresh.headers['set-cookie']);
    expect(cookie).not.toBe(user.cookie);
    expect(String(fresh.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
    expectApiError(await sessionOf(t, user.cookie), 401, 'UNAUTHORIZED');
    expect((await sessionOf(t, cookie)).status).toBe(200);
  });

  it('ends a session after 30 idle minutes', async () => {
    const user = await consoleUser(t, 'viewer');
    await t.ctx.testClock!.advance(31 * 60);
    expectApiError(await sessionOf(t, user.cookie), 401, 'UNAUTHORIZED');
    const rows = await t.ctx.db
      .selectFrom('console_sessions')
      .selectAll()
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('ends a session 12 hours after sign-in even when it is in use', async () => {
    const user = await consoleUser(t, 'viewer');
    for (let i = 0; i < 25; i++) {
      await t.ctx.testClock!.advance(29 * 60);
      if ((await sessionOf(t, user.cookie)).status !== 200) break;
    }
    expectApiError(await sessionOf(t, user.cookie), 401, 'UNAUTHORIZED');
  });

  it("refuses a state-changing call without the CSRF token, or with another session's", async () => {
    const user = await consoleUser(t, 'owner');
    const other = await consoleUser(t, 'owner');
    const none = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/keys`,
      headers: { cookie: user.cookie },
      payload: { name: 'k', scopes: ['seller:products:read'], allowedIps: [] },
    });
    expectApiError(none, 403, 'FORBIDDEN');
    expect(none.body.details.reason).toBe('csrf');
    const foreign = await consoleCall(t, { ...user, csrf: other.csrf }, 'POST', '/keys', {
      name: 'k',
      scopes: ['seller:products:read'],
      allowedIps: [],
    });
    expectApiError(foreign, 403, 'FORBIDDEN');
    const keys = await t.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('company_id', '=', user.seller.company.id)
      .execute();
    expect(keys).toHaveLength(1);
  });

  it('refuses a sign-in posted from another site', async () => {
    const user = await consoleUser(t, 'viewer');
    const crossSite = await signIn(user.email, PASSWORD, {}, { origin: 'https://evil.example' });
    expectApiError(crossSite, 403, 'FORBIDDEN');
  });

  it('signs out everywhere: every session of the user ends', async () => {
    const user = await consoleUser(t, 'developer');
    const second = cookieOf((await signIn(user.email, PASSWORD)).headers['set-cookie']);
    expect((await sessionOf(t, second)).status).toBe(200);
    expect((await consoleCall(t, user, 'POST', '/sign-out-everywhere')).status).toBe(204);
    expectApiError(await sessionOf(t, second), 401, 'UNAUTHORIZED');
    expectApiError(await sessionOf(t, user.cookie), 401, 'UNAUTHORIZED');
  });

  it('a password change ends the other sessions and keeps the caller signed in', async () => {
    const user = await consoleUser(t, 'developer');
    const second = cookieOf((await signIn(user.email, PASSWORD)).headers['set-cookie']);
    const changed = await consoleCall(t, user, 'POST', '/password', {
      currentPassword: PASSWORD,
      newPassword: 'another long passphrase',
    });
    expect(changed.status).toBe(204);
    expectApiError(await sessionOf(t, second), 401, 'UNAUTHORIZED');
    expect((await sessionOf(t, cookieOf(changed.headers['set-cookie']))).status).toBe(200);
    expect((await signIn(user.email, 'another long passphrase')).status).toBe(204);
  });

  it('throttles an account after five failures with growing delays, whatever the password', async () => {
    const user = await consoleUser(t, 'viewer');
    for (let i = 0; i < 5; i++)
      expectApiError(await signIn(user.email, 'wrong password!!'), 401, 'UNAUTHORIZED');
    const sixth = await signIn(user.email, 'wrong password!!');
    expectApiError(sixth, 401, 'UNAUTHORIZED');
    const blocked = await signIn(user.email, PASSWORD);
    expectApiError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
    expect(blocked.headers['retry-after']).toBe('1');
    await t.ctx.testClock!.advance(2);
    expectApiError(await signIn(user.email, 'wrong password!!'), 401, 'UNAUTHORIZED');
    const longer = await signIn(user.email, PASSWORD);
    expectApiError(longer, 429, 'RATE_LIMIT_EXCEEDED');
    expect(longer.headers['retry-after']).toBe('2');
    // An unknown email is throttled the same way: the delay does not tell which addresses exist.
    for (let i = 0; i < 6; i++) await signIn('ghost@example.com', 'wrong password!!');
    expectApiError(await signIn('ghost@example.com', 'wrong password!!'), 429, 'RATE_LIMIT_EXCEEDED');
    await t.ctx.testClock!.advance(3);
    expect((await signIn(user.email, PASSWORD)).status).toBe(204);
  });

  it('asks for the authenticator code once TOTP is on, and accepts only the right one', async () => {
    const user = await consoleUser(t, 'developer');
    const started = await consoleCall(t, user, 'POST', '/totp/start');
    const secret = started.body.data.secret as string;
    expect(started.body.data.uri).toMatch(/^otpauth:\/\/totp\//);
    const bad = await consoleCall(t, user, 'POST', '/totp/confirm', { code: '000000' });
    expectApiError(bad, 422, 'VALIDATION_FAILED');
    const now = () => t.ctx.clock.now();
    expect(
      (await consoleCall(t, user, 'POST', '/totp/confirm', { code: currentTotp(secret, now()) })).status,
    ).toBe(200);
    const stored = await t.ctx.db
      .selectFrom('console_users')
      .select('totp_secret')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(stored.totp_secret).not.toContain(secret);
    const noCode = await signIn(user.email, PASSWORD);
    expectApiError(noCode, 401, 'UNAUTHORIZED');
    expect(noCode.body.details.reason).toBe('totp_required');
    expectApiError(
      await signIn(user.email, PASSWORD, {
        totpCode: '123456' === currentTotp(secret, now()) ? '654321' : '123456',
      }),
      401,
      'UNAUTHORIZED',
    );
    // The confirming code's step is used: the next step's code signs in.
    await t.ctx.testClock!.advance(30);
    expect((await signIn(user.email, PASSWORD, { totpCode: currentTotp(secret, now()) })).status).toBe(204);
  });

  it('an owner requiring TOTP confines a user without it to enrolment', async () => {
    const owner = await consoleUser(t, 'owner');
    const dev = await consoleUser(t, 'developer', owner.seller);
    expect((await consoleCall(t, owner, 'PUT', '/team/require-totp', { required: true })).status).toBe(204);
    const keys = await consoleCall(t, dev, 'GET', '/keys');
    expectApiError(keys, 403, 'FORBIDDEN');
    expect(keys.body.details.reason).toBe('totp_enrolment');
    const session = await sessionOf(t, dev.cookie);
    expect(session.body.data.mustEnrolTotp).toBe(true);
  });
});
