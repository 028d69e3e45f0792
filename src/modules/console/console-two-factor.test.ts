import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  consoleCall,
  consoleUser,
  cookieOf,
  enrolTotp,
  PASSWORD,
  sessionOf,
  signInCall,
} from '../../../test/console.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';
import { useSecondApp } from '../../../test/second-app.js';
import { RECOVERY_CODE_COUNT } from './recovery-codes.js';
import { currentTotp } from './totp.js';

const t = useTestApp();
const secondApp = useSecondApp(t);

const codeNow = (secret: string) => currentTotp(secret, t.ctx.clock.now());
/** Moves this process's clock to the next 30 s step, where the current code is a new one. */
const nextStep = () => t.ctx.testClock!.advance(30);

const auditActions = async (companyId: string) =>
  (
    await t.ctx.db
      .selectFrom('console_audit')
      .select(['action', 'actor', 'target', 'detail'])
      .where('company_id', '=', companyId)
      .orderBy('at')
      .orderBy('id')
      .execute()
  ).map((row) => ({ ...row, detail: row.detail ? JSON.parse(row.detail) : {} }));

describe('TOTP codes are good once', () => {
  it('refuses a code that already signed in, for as long as it would still be valid', async () => {
    const user = await consoleUser(t, 'developer');
    const { secret } = await enrolTotp(t, user);
    nextStep();
    const code = codeNow(secret);
    expect((await signInCall(t, user.email, PASSWORD, { totpCode: code })).status).toBe(204);
    const replay = await signInCall(t, user.email, PASSWORD, { totpCode: code });
    expectApiError(replay, 401, 'UNAUTHORIZED');
    expect(replay.body.details.reason).toBe('credentials');
    // Still inside the ±1 step window, the same code stays refused.
    await t.ctx.testClock!.advance(25);
    expectApiError(await signInCall(t, user.email, PASSWORD, { totpCode: code }), 401, 'UNAUTHORIZED');
    // An earlier step's code (the one before the used one) is refused too, though in the window.
    const earlier = currentTotp(secret, t.ctx.clock.now() - 60_000);
    expectApiError(await signInCall(t, user.email, PASSWORD, { totpCode: earlier }), 401, 'UNAUTHORIZED');
    nextStep();
    expect((await signInCall(t, user.email, PASSWORD, { totpCode: codeNow(secret) })).status).toBe(204);
    const failed = (await auditActions(user.seller.company.id)).filter(
      (a) => a.action === 'user.sign_in_failed',
    );
    expect(failed.map((a) => a.detail.factor)).toEqual(['totp', 'totp', 'totp']);
  });

  it('refuses at sign-in the code that confirmed enrolment', async () => {
    const user = await consoleUser(t, 'viewer');
    const started = await consoleCall(t, user, 'POST', '/totp/start');
    const secret = started.body.data.secret as string;
    const code = codeNow(secret);
    expect((await consoleCall(t, user, 'POST', '/totp/confirm', { code })).status).toBe(200);
    expectApiError(await signInCall(t, user.email, PASSWORD, { totpCode: code }), 401, 'UNAUTHORIZED');
    const row = await t.ctx.db
      .selectFrom('console_users')
      .select('totp_last_step')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(Number(row.totp_last_step)).toBe(Math.floor(t.ctx.clock.now() / 30_000));
  });

  it(
    ENGINE === 'postgres'
      ? 'the same code sent to two app processes at once signs in exactly once (PostgreSQL, two processes)'
      : 'the same code sent twice at once signs in exactly once (SQLite, one process: the accounting)',
    async () => {
      const user = await consoleUser(t, 'developer');
      const { secret } = await enrolTotp(t, user);
      const apps: FastifyInstance[] = [t.app, secondApp() ?? t.app];
      for (let round = 0; round < 3; round++) {
        // Every process moves to a fresh step before the race.
        await t.ctx.testClock!.advanceShared(30);
        const code = codeNow(secret);
        const results = await Promise.all(
          apps.map((app) =>
            app.inject({
              method: 'POST',
              url: `${CONSOLE_API}/sign-in`,
              payload: { email: user.email, password: PASSWORD, totpCode: code },
            }),
          ),
        );
        expect(results.map((r) => r.statusCode).sort()).toEqual([204, 401]);
      }
      const sessions = await t.ctx.db
        .selectFrom('console_sessions')
        .select('id_hash')
        .where('user_id', '=', user.userId)
        .execute();
      // The invite's session and one per round.
      expect(sessions).toHaveLength(4);
    },
  );
});

describe('recovery codes', () => {
  it('are shown once at enrolment, kept only as hashes, and not cached', async () => {
    const user = await consoleUser(t, 'developer');
    const { recoveryCodes, confirmed } = await enrolTotp(t, user);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
    const rows = await t.ctx.db
      .selectFrom('console_recovery_codes')
      .selectAll()
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toHaveLength(RECOVERY_CODE_COUNT);
    const stored = JSON.stringify(rows);
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replaceAll('-', ''));
    }
    for (const row of rows) expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    // Only the count is ever read back.
    const status = await consoleCall(t, user, 'GET', '/totp/recovery-codes');
    expect(status.body).toEqual({ data: { left: RECOVERY_CODE_COUNT } });
    expect(status.raw).not.toContain(recoveryCodes[0]!);
  });

  it('sign in in place of a code, each once, however it is typed; the count left goes down', async () => {
    const user = await consoleUser(t, 'finance');
    const { recoveryCodes } = await enrolTotp(t, user);
    const [first, second] = recoveryCodes as [string, string];
    const signedIn = await signInCall(t, user.email, PASSWORD, { recoveryCode: first });
    expect(signedIn.status).toBe(204);
    expectApiError(await signInCall(t, user.email, PASSWORD, { recoveryCode: first }), 401, 'UNAUTHORIZED');
    const typed = ` ${second.toUpperCase().replaceAll('-', ' ')} `;
    expect((await signInCall(t, user.email, PASSWORD, { recoveryCode: typed })).status).toBe(204);
    const me = { ...user, cookie: cookieOf(signedIn.headers['set-cookie']) };
    me.csrf = (await sessionOf(t, me.cookie)).body.data.csrfToken;
    expect((await consoleCall(t, me, 'GET', '/totp/recovery-codes')).body.data.left).toBe(
      RECOVERY_CODE_COUNT - 2,
    );
    const audit = await auditActions(user.seller.company.id);
    const signIns = audit.filter((a) => a.action === 'user.signed_in');
    expect(signIns.at(-1)!.detail).toEqual({
      secondFactor: true,
      recoveryCode: true,
      recoveryCodesLeft: RECOVERY_CODE_COUNT - 2,
    });
    const failed = audit.filter((a) => a.action === 'user.sign_in_failed');
    expect(failed.map((a) => a.detail.factor)).toEqual(['recovery_code']);
    // Both fields at once is a malformed request, refused before anything is checked or spent.
    const both = await signInCall(t, user.email, PASSWORD, {
      totpCode: '123456',
      recoveryCode: recoveryCodes[2],
    });
    expectApiError(both, 422, 'VALIDATION_FAILED');
    expect((await signInCall(t, user.email, PASSWORD, { recoveryCode: recoveryCodes[2] })).status).toBe(204);
  });

  it('are throttled at sign-in as codes are', async () => {
    const user = await consoleUser(t, 'viewer');
    const { recoveryCodes } = await enrolTotp(t, user);
    for (let i = 0; i < 6; i++) {
      const wrong = await signInCall(t, user.email, PASSWORD, { recoveryCode: `aaaa-bbbb-cccc-dd${i}d` });
      expectApiError(wrong, 401, 'UNAUTHORIZED');
    }
    const blocked = await signInCall(t, user.email, PASSWORD, { recoveryCode: recoveryCodes[0] });
    expectApiError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
    expect(blocked.headers['retry-after']).toBe('1');
    await t.ctx.testClock!.advance(2);
    expect((await signInCall(t, user.email, PASSWORD, { recoveryCode: recoveryCodes[0] })).status).toBe(204);
  });

  it('regenerating takes a code, answers new codes once (no-store) and ends the old ones', async () => {
    const user = await consoleUser(t, 'owner');
    const { secret, recoveryCodes: old } = await enrolTotp(t, user);
    expectApiError(await consoleCall(t, user, 'POST', '/totp/recovery-codes', {}), 422, 'VALIDATION_FAILED');
    nextStep();
    const fresh = await consoleCall(t, user, 'POST', '/totp/recovery-codes', { code: codeNow(secret) });
    expect(fresh.status).toBe(200);
    expect(fresh.headers['cache-control']).toBe('no-store');
    const codes = fresh.body.data.recoveryCodes as string[];
    expect(fresh.body.data.left).toBe(RECOVERY_CODE_COUNT);
    expect(codes.filter((code) => old.includes(code))).toEqual([]);
    expectApiError(await signInCall(t, user.email, PASSWORD, { recoveryCode: old[1] }), 401, 'UNAUTHORIZED');
    expect((await signInCall(t, user.email, PASSWORD, { recoveryCode: codes[1] })).status).toBe(204);
    // A recovery code may prove the factor for the next set too (the phone is the thing lost).
    const again = await consoleCall(t, user, 'POST', '/totp/recovery-codes', { recoveryCode: codes[2] });
    expect(again.status).toBe(200);
    expect(
      await t.ctx.db
        .selectFrom('console_recovery_codes')
        .select('id')
        .where('user_id', '=', user.userId)
        .execute(),
    ).toHaveLength(RECOVERY_CODE_COUNT);
    const actions = (await auditActions(user.seller.company.id)).map((a) => a.action);
    expect(actions.filter((a) => a === 'user.recovery_codes_regenerated')).toHaveLength(2);
  });

  it('go with the second factor when it is turned off; off, there is no count and nothing to regenerate', async () => {
    const user = await consoleUser(t, 'developer');
    const { recoveryCodes } = await enrolTotp(t, user);
    expect(
      (await consoleCall(t, user, 'POST', '/totp/disable', { recoveryCode: recoveryCodes[0] })).status,
    ).toBe(204);
    const rows = await t.ctx.db
      .selectFrom('console_recovery_codes')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toHaveLength(0);
    expect((await consoleCall(t, user, 'GET', '/totp/recovery-codes')).body.data.left).toBeNull();
    expectApiError(
      await consoleCall(t, user, 'POST', '/totp/recovery-codes', { code: '123456' }),
      422,
      'VALIDATION_FAILED',
    );
    expect((await signInCall(t, user.email, PASSWORD)).status).toBe(204);
  });
});

describe("an owner resets a teammate's second factor", () => {
  it('clears the secret and recovery codes, ends their sessions, and is audited', async () => {
    const owner = await consoleUser(t, 'owner');
    const dev = await consoleUser(t, 'developer', owner.seller);
    await enrolTotp(t, dev);
    const reset = await consoleCall(t, owner, 'POST', `/team/users/${dev.userId}/reset-two-factor`);
    expect(reset.status).toBe(204);
    expectApiError(await sessionOf(t, dev.cookie), 401, 'UNAUTHORIZED');
    const row = await t.ctx.db
      .selectFrom('console_users')
      .selectAll()
      .where('id', '=', dev.userId)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toBeNull();
    expect(row.totp_enabled_at).toBeNull();
    expect(
      await t.ctx.db
        .selectFrom('console_recovery_codes')
        .select('id')
        .where('user_id', '=', dev.userId)
        .execute(),
    ).toHaveLength(0);
    expect((await signInCall(t, dev.email, PASSWORD)).status).toBe(204);
    const audit = (await auditActions(owner.seller.company.id)).filter((a) => a.action === 'user.totp_reset');
    expect(audit).toEqual([
      { action: 'user.totp_reset', actor: `user:${owner.email}`, target: dev.email, detail: {} },
    ]);
    // Nothing left to reset; one's own is not reset here.
    expectApiError(
      await consoleCall(t, owner, 'POST', `/team/users/${dev.userId}/reset-two-factor`),
      422,
      'VALIDATION_FAILED',
    );
    await enrolTotp(t, owner);
    expectApiError(
      await consoleCall(t, owner, 'POST', `/team/users/${owner.userId}/reset-two-factor`),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('is refused to every other role (403) and for another company’s user (404)', async () => {
    const owner = await consoleUser(t, 'owner');
    const target = await consoleUser(t, 'viewer', owner.seller);
    await enrolTotp(t, target);
    for (const role of ['developer', 'finance', 'viewer'] as const) {
      const other = await consoleUser(t, role, owner.seller);
      const refused = await consoleCall(t, other, 'POST', `/team/users/${target.userId}/reset-two-factor`);
      expectApiError(refused, 403, 'FORBIDDEN');
      expect(refused.body.details.reason).toBe('role');
    }
    const stranger = await consoleUser(t, 'owner');
    expectApiError(
      await consoleCall(t, stranger, 'POST', `/team/users/${target.userId}/reset-two-factor`),
      404,
      'NOT_FOUND',
    );
    expect((await sessionOf(t, target.cookie)).status).toBe(200);
    const row = await t.ctx.db
      .selectFrom('console_users')
      .select('totp_enabled_at')
      .where('id', '=', target.userId)
      .executeTakeFirstOrThrow();
    expect(row.totp_enabled_at).not.toBeNull();
  });
});
