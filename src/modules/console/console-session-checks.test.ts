import { describe, expect, it } from 'vitest';
import {
  type ConsoleUser,
  consoleCall,
  consoleUser,
  enrolTotp,
  PASSWORD,
  sessionOf,
  signInCall,
} from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';
import { SESSION_FAILURE_LIMIT } from './in-session-checks.js';
import { currentTotp } from './totp.js';

const t = useTestApp();

const wrongPassword = (user: ConsoleUser) =>
  consoleCall(t, user, 'POST', '/password', {
    currentPassword: 'not the password at all',
    newPassword: 'another long passphrase',
  });

/** A six-digit code that is not the one the secret shows now (nor either side of it). */
const wrongCodeFor = (secret: string) => {
  const now = t.ctx.clock.now();
  const near = new Set([-30_000, 0, 30_000].map((d) => currentTotp(secret, now + d)));
  return ['123456', '654321', '111111', '222222'].find((code) => !near.has(code))!;
};

const checkFailures = async (companyId: string) =>
  (
    await t.ctx.db
      .selectFrom('console_audit')
      .select('detail')
      .where('company_id', '=', companyId)
      .where('action', '=', 'user.check_failed')
      .orderBy('at')
      .orderBy('id')
      .execute()
  ).map((row) => JSON.parse(row.detail ?? '{}'));

describe('checks inside a session', () => {
  it(`a wrong current password ends the session at the ${SESSION_FAILURE_LIMIT}rd try`, async () => {
    const user = await consoleUser(t, 'developer');
    for (let i = 1; i < SESSION_FAILURE_LIMIT; i++) {
      const wrong = await wrongPassword(user);
      expectApiError(wrong, 422, 'VALIDATION_FAILED');
      expect((await sessionOf(t, user.cookie)).status).toBe(200);
    }
    const last = await wrongPassword(user);
    expectApiError(last, 401, 'UNAUTHORIZED');
    expect(last.body.details.reason).toBe('session_ended');
    expectApiError(await sessionOf(t, user.cookie), 401, 'UNAUTHORIZED');
    expect(await checkFailures(user.seller.company.id)).toEqual([
      { factor: 'password', during: 'password_change', sessionEnded: false },
      { factor: 'password', during: 'password_change', sessionEnded: false },
      { factor: 'password', during: 'password_change', sessionEnded: true },
    ]);
    // The password did not change.
    expect((await signInCall(t, user.email, PASSWORD)).status).toBe(204);
  });

  it('a wrong code to turn two-factor off ends the session the same way, and the factor stays on', async () => {
    const user = await consoleUser(t, 'finance');
    const { secret } = await enrolTotp(t, user);
    for (let i = 1; i < SESSION_FAILURE_LIMIT; i++) {
      const wrong = await consoleCall(t, user, 'POST', '/totp/disable', { code: wrongCodeFor(secret) });
      expectApiError(wrong, 422, 'VALIDATION_FAILED');
    }
    const wrongRecovery = await consoleCall(t, user, 'POST', '/totp/disable', {
      recoveryCode: 'aaaa-bbbb-cccc-dddd',
    });
    expectApiError(wrongRecovery, 401, 'UNAUTHORIZED');
    expect(wrongRecovery.body.details.reason).toBe('session_ended');
    expectApiError(await sessionOf(t, user.cookie), 401, 'UNAUTHORIZED');
    const row = await t.ctx.db
      .selectFrom('console_users')
      .select('totp_enabled_at')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(row.totp_enabled_at).not.toBeNull();
    expect((await checkFailures(user.seller.company.id)).map((f) => f.factor)).toEqual([
      'totp',
      'totp',
      'recovery_code',
    ]);
  });

  it('share the sign-in throttle: in-session failures delay sign-in, sign-in failures delay the checks', async () => {
    const user = await consoleUser(t, 'developer');
    // Four failed sign-ins and two wrong current passwords: six failures of the account.
    for (let i = 0; i < 4; i++)
      expectApiError(await signInCall(t, user.email, 'wrong password!!'), 401, 'UNAUTHORIZED');
    expectApiError(await wrongPassword(user), 422, 'VALIDATION_FAILED');
    expectApiError(await wrongPassword(user), 422, 'VALIDATION_FAILED');
    const signIn = await signInCall(t, user.email, PASSWORD);
    expectApiError(signIn, 429, 'RATE_LIMIT_EXCEEDED');
    expect(signIn.headers['retry-after']).toBe('1');
    // Inside the delay the check is not even made: the right password is refused too, and the
    // refusal does not count towards ending the session.
    const blocked = await consoleCall(t, user, 'POST', '/password', {
      currentPassword: PASSWORD,
      newPassword: 'another long passphrase',
    });
    expectApiError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
    expect(blocked.headers['retry-after']).toBe('1');
    await t.ctx.testClock!.advance(2);
    const changed = await consoleCall(t, user, 'POST', '/password', {
      currentPassword: PASSWORD,
      newPassword: 'another long passphrase',
    });
    expect(changed.status).toBe(204);
  });

  it('a code to turn two-factor off is throttled once the account is', async () => {
    const user = await consoleUser(t, 'viewer');
    const { secret } = await enrolTotp(t, user);
    await t.ctx.testClock!.advance(30);
    for (let i = 0; i < 6; i++)
      expectApiError(await signInCall(t, user.email, 'wrong password!!'), 401, 'UNAUTHORIZED');
    const blocked = await consoleCall(t, user, 'POST', '/totp/disable', {
      code: currentTotp(secret, t.ctx.clock.now()),
    });
    expectApiError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
    expect(blocked.headers['retry-after']).toBe('1');
    await t.ctx.testClock!.advance(2);
    expect(
      (await consoleCall(t, user, 'POST', '/totp/disable', { code: currentTotp(secret, t.ctx.clock.now()) }))
        .status,
    ).toBe(204);
  });

  it('a right answer does not reset the session count: failures add up across checks', async () => {
    const user = await consoleUser(t, 'owner');
    const { secret } = await enrolTotp(t, user);
    expectApiError(await wrongPassword(user), 422, 'VALIDATION_FAILED');
    await t.ctx.testClock!.advance(30);
    const regenerated = await consoleCall(t, user, 'POST', '/totp/recovery-codes', {
      code: currentTotp(secret, t.ctx.clock.now()),
    });
    expect(regenerated.status).toBe(200);
    expectApiError(
      await consoleCall(t, user, 'POST', '/totp/recovery-codes', { code: wrongCodeFor(secret) }),
      422,
      'VALIDATION_FAILED',
    );
    const third = await wrongPassword(user);
    expectApiError(third, 401, 'UNAUTHORIZED');
    expect(third.body.details.reason).toBe('session_ended');
  });
});
