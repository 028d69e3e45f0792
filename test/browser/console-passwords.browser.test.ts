import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WEAK_PASSWORD_SENTENCE } from '../../src/modules/console/password-policy.js';
import { inviteUser } from '../../src/modules/console/users.service.js';
import { PASSWORD } from '../console.js';
import { makeSeller } from '../factories.js';
import { useTestApp } from '../harness.js';
import { BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';

/**
 * The two password forms in Debian's chromium: a password the service finds easy to guess is
 * refused with its sentence shown under the field that holds it, on the invite page and on
 * Your account. Screenshots go to the CI artifacts; axe-core checks both pages.
 */
const t = useTestApp();

describe.skipIf(BROWSER_SKIPPED)('console password forms in a browser', () => {
  let opened: ConsoleBrowser | undefined;
  afterAll(async () => {
    await opened?.browser.close();
  });

  it('shows the refusal of a guessable password beside the field, then accepts a strong one', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const seller = await makeSeller(t);
    const invite = await inviteUser(t.ctx, {
      companyId: seller.company.id,
      email: 'lena.brandt@example.com',
      role: 'owner',
      invitedBy: 'operator',
      source: 'cli',
    });
    opened = await openConsoleBrowser(base);
    const { page } = opened;

    await page.goto(`${base}/console/invite#${invite.link.split('#')[1]}`);
    await page.getByLabel('New password').fill('password1234');
    await page.getByLabel('Repeat the password').fill('password1234');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    const inviteError = page.locator('#password-error');
    await inviteError.waitFor();
    expect(await inviteError.textContent()).toBe(WEAK_PASSWORD_SENTENCE);
    expect(await page.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
    await opened.check('invite-weak-password');
    await opened.acceptInvite(PASSWORD);

    await page.goto(`${base}/console/account`);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password (at least 12 characters)').fill('lena.brandt@example.com');
    await page.getByRole('button', { name: 'Change password' }).click();
    const accountError = page.locator('#new-password-error');
    await accountError.waitFor();
    expect(await accountError.textContent()).toBe(WEAK_PASSWORD_SENTENCE);
    await opened.check('account-weak-password');
    expect(opened.foreign).toEqual([]);
  }, 180_000);
});
