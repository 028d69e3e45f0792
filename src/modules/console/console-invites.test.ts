import { describe, expect, it } from 'vitest';
import { CONSOLE_API, consoleCall, consoleUser, PASSWORD } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

const tokenOf = (link: string) => link.split('#')[1]!;
const lookup = (token: string) =>
  call(t, { method: 'POST', url: `${CONSOLE_API}/invites/lookup`, payload: { token } });
const accept = (token: string, password = 'another horse battery staple') =>
  call(t, { method: 'POST', url: `${CONSOLE_API}/invites/accept`, payload: { token, password } });
const signIn = (email: string, password: string) =>
  call(t, { method: 'POST', url: `${CONSOLE_API}/sign-in`, payload: { email, password } });

/** An answer with what necessarily differs between two invites (address, id, link, expiry) blanked. */
const shapeOf = (answer: { status: number; body: { data: Record<string, unknown> } }) => ({
  status: answer.status,
  data: { ...answer.body.data, id: 'id', email: 'email', link: 'link', expiresAt: 'expiresAt' },
  keys: Object.keys(answer.body.data).sort(),
});

describe('invites never tell whether an address has an account elsewhere', () => {
  it("answers an invite (and its repeat) to another company's user exactly as one to an unknown address, and lists both alike", async () => {
    const owner = await consoleUser(t, 'owner');
    const elsewhere = await consoleUser(t, 'viewer');
    const unknown = `nobody-${Date.now()}@example.com`;
    const invite = (email: string) =>
      consoleCall(t, owner, 'POST', '/team/invites', { email, role: 'developer' });
    const answers = [
      await invite(unknown),
      await invite(elsewhere.email),
      await invite(unknown),
      await invite(elsewhere.email.toUpperCase()),
    ];
    const [first, ...rest] = answers.map(shapeOf);
    expect(first!.status).toBe(201);
    for (const other of rest) expect(other).toEqual(first);
    const team = (await consoleCall(t, owner, 'GET', '/team')).body.data;
    expect(team.users.map((u: { email: string }) => u.email)).toEqual([owner.email]);
    const listed = team.invites.map((i: Record<string, unknown>) => ({ ...i, id: 'id', expiresAt: 'e' }));
    const forUnknown = listed.filter((i: { email: string }) => i.email === unknown);
    const forElsewhere = listed.filter((i: { email: string }) => i.email === elsewhere.email);
    expect(forElsewhere.map((i: object) => ({ ...i, email: 'email' }))).toEqual(
      forUnknown.map((i: object) => ({ ...i, email: 'email' })),
    );
    expect(forElsewhere).toHaveLength(2);
    const audit = await t.ctx.db
      .selectFrom('console_audit')
      .select(['action', 'target'])
      .where('company_id', '=', owner.seller.company.id)
      .where('action', '=', 'user.invited')
      .where('actor', '=', `user:${owner.email}`)
      .execute();
    expect(audit).toHaveLength(4);
  });

  it('refuses only a member of the inviting company at invite time, whom its team list shows anyway', async () => {
    const owner = await consoleUser(t, 'owner');
    const member = await consoleUser(t, 'finance', owner.seller);
    const again = await consoleCall(t, owner, 'POST', '/team/invites', {
      email: member.email,
      role: 'viewer',
    });
    expectApiError(again, 422, 'VALIDATION_FAILED');
    expect(again.body.details.issues[0].field).toBe('email');
    expect(again.body.message).toContain('this company');
  });

  it('acceptance refuses an address with an account in another company, leaves the invite open and the account as it was', async () => {
    const owner = await consoleUser(t, 'owner');
    const elsewhere = await consoleUser(t, 'developer');
    const invited = await consoleCall(t, owner, 'POST', '/team/invites', {
      email: elsewhere.email,
      role: 'owner',
    });
    const token = tokenOf(invited.body.data.link);
    const looked = await lookup(token);
    expect(looked.body.data).toMatchObject({ email: elsewhere.email, role: 'owner' });

    const refused = await accept(token);
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.message).toContain('another company');
    expect(refused.body.message).not.toContain(elsewhere.seller.company.name);
    expect(refused.headers['set-cookie']).toBeUndefined();

    // Nothing changed: the invite is still open, the account still in its company with its password.
    expect((await lookup(token)).status).toBe(200);
    const team = (await consoleCall(t, owner, 'GET', '/team')).body.data;
    expect(team.invites.map((i: { email: string }) => i.email)).toEqual([elsewhere.email]);
    expect(team.users.map((u: { email: string }) => u.email)).toEqual([owner.email]);
    const user = await t.ctx.db
      .selectFrom('console_users')
      .selectAll()
      .where('email', '=', elsewhere.email)
      .execute();
    expect(user.map((u) => [u.company_id, u.role])).toEqual([[elsewhere.seller.company.id, 'developer']]);
    expect((await signIn(elsewhere.email, PASSWORD)).status).toBe(204);
    expectApiError(await signIn(elsewhere.email, 'another horse battery staple'), 401, 'UNAUTHORIZED');
    const joined = await t.ctx.db
      .selectFrom('console_audit')
      .select('action')
      .where('company_id', '=', owner.seller.company.id)
      .where('action', '=', 'user.joined')
      .execute();
    expect(joined).toHaveLength(1);
  });

  it('acceptance of a second invite of a member says to sign in, and an unknown address joins', async () => {
    const owner = await consoleUser(t, 'owner');
    const address = `twice-${Date.now()}@example.com`;
    const first = await consoleCall(t, owner, 'POST', '/team/invites', { email: address, role: 'viewer' });
    const second = await consoleCall(t, owner, 'POST', '/team/invites', { email: address, role: 'finance' });
    expect((await accept(tokenOf(first.body.data.link))).status).toBe(204);
    const refused = await accept(tokenOf(second.body.data.link));
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.message).toContain('sign in');
    const team = (await consoleCall(t, owner, 'GET', '/team')).body.data;
    expect(team.users.map((u: { email: string; role: string }) => [u.email, u.role]).sort()).toEqual(
      [
        [owner.email, 'owner'],
        [address, 'viewer'],
      ].sort(),
    );
  });
});
