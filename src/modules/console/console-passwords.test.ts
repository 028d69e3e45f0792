import { describe, expect, it } from 'vitest';
import { CONSOLE_API, consoleCall, consoleUser, PASSWORD } from '../../../test/console.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { createCompany } from '../companies/companies.service.js';
import { WEAK_PASSWORD_SENTENCE } from './password-policy.js';
import { inviteUser } from './users.service.js';

const t = useTestApp();

/** An open invite to a company called `companyName`, and the call that accepts it with a password. */
async function openInviteFor(companyName: string, email: string) {
  const company = await createCompany(t.ctx, { name: companyName, country: 'DE' }, t.ctx.db);
  const invite = await inviteUser(t.ctx, {
    companyId: company.id,
    email,
    role: 'owner',
    invitedBy: 'operator',
    source: 'cli',
  });
  const token = invite.link.split('#')[1]!;
  return (password: string) =>
    call(t, { method: 'POST', url: `${CONSOLE_API}/invites/accept`, payload: { token, password } });
}

function expectWeak(result: Awaited<ReturnType<typeof call>>, field: string) {
  expectApiError(result, 422, 'VALIDATION_FAILED');
  expect(result.body.message).toBe(WEAK_PASSWORD_SENTENCE);
  expect(result.body.details.issues).toEqual([
    { field, in: 'body', message: 'is too easy to guess', keyword: 'strength' },
  ]);
}

const usersCalled = (email: string) =>
  t.ctx.db.selectFrom('console_users').select('id').where('email', '=', email).execute();

describe('a new password is refused when it is easy to guess', () => {
  it('refuses common passwords, all spaces, the e-mail address and the company name on invite acceptance', async () => {
    const email = 'mia.keller@brightforge.example';
    const accept = await openInviteFor('Brightforge Games', email);
    for (const weak of [
      'password1234',
      ' '.repeat(12),
      'qwertyuiop12',
      email,
      `${email}!`,
      'Brightforge Games',
      'brightforgegames2026!',
      'I work at Brightforge Games',
    ]) {
      expectWeak(await accept(weak), 'password');
    }
    // Nothing was half done: no user, and the invite still opens.
    expect(await usersCalled(email)).toHaveLength(0);
    expect((await accept('orbit kettle lantern 47')).status).toBe(204);
    expect(await usersCalled(email)).toHaveLength(1);
  });

  it('keeps the length rule: eleven characters are refused before any guessing', async () => {
    const accept = await openInviteFor('Northwind Keys', 'short@northwind.example');
    const short = await accept('x7#Lq9!vR2z');
    expectApiError(short, 422, 'VALIDATION_FAILED');
    expect(short.body.details.issues[0]).toMatchObject({ field: 'password', keyword: 'minLength' });
  });

  it('refuses a weak new password on password change, naming newPassword, and keeps the old one', async () => {
    const seller = await makeSeller(t);
    const user = await consoleUser(t, 'developer', seller);
    for (const weak of ['password1234', user.email, seller.company.name, `${seller.company.name} 2026`]) {
      const changed = await consoleCall(t, user, 'POST', '/password', {
        currentPassword: PASSWORD,
        newPassword: weak,
      });
      expectWeak(changed, 'newPassword');
    }
    const signIn = (password: string) =>
      call(t, { method: 'POST', url: `${CONSOLE_API}/sign-in`, payload: { email: user.email, password } });
    expect((await signIn(PASSWORD)).status).toBe(204);
    const strong = await consoleCall(t, user, 'POST', '/password', {
      currentPassword: PASSWORD,
      newPassword: 'orbit kettle lantern 47',
    });
    expect(strong.status).toBe(204);
    expect((await signIn('orbit kettle lantern 47')).status).toBe(204);
  });
});
