import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../../src/modules/console/totp.js';
import { type CompiledServer, freePort, startCompiledServer } from '../compiled-server.js';
import { BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';
import { operatorApi, operatorCli } from './console-journey.js';

/**
 * Two-factor sign-in and the Team page in Debian's chromium, on the compiled server (`npm run
 * build` first), at a laptop's and a phone's size: an owner enrols with the QR code, keeps the
 * recovery codes and signs in with one; a finance user turns two-factor sign-in on and reads the
 * Team page without a single control; the owner resets that user's second factor, and is asked
 * before the reset, a role change and a removal. Every page is screenshotted
 * and checked by axe-core.
 */
const PASSWORD = 'a long console passphrase';
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.skipIf(BROWSER_SKIPPED)('two-factor sign-in and the Team page in a browser', () => {
  let server: CompiledServer;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startCompiledServer({ PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' });
  }, 120_000);
  afterAll(async () => {
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  for (const viewport of VIEWPORTS) {
    it(`enrols with a QR code, signs in with a recovery code, and shows each role its Team page (${viewport.name})`, async () => {
      let opened: ConsoleBrowser | undefined;
      try {
        // A refused sign-in answers 401 on purpose (refusalsExpected).
        opened = await openConsoleBrowser(base, { viewport });
        const page = opened.page;
        const shot = (name: string) => opened!.check(`two-factor-${name}-${viewport.name}`);
        const owner = `owner-${viewport.name}@twofactor.example`;
        const finance = `finance-${viewport.name}@twofactor.example`;
        const company = await operatorApi(server, 'POST', '/companies', {
          name: `Two Factor ${viewport.name}`,
          country: 'US',
        });
        const invite = (email: string, role: string) =>
          operatorCli(
            server,
            base,
            'users',
            'invite',
            '--company',
            company.data.id,
            '--email',
            email,
            '--role',
            role,
          );
        const [ownerInvite, financeInvite] = [await invite(owner, 'owner'), await invite(finance, 'finance')];

        await page.goto(ownerInvite.link);
        await opened.acceptInvite(PASSWORD);

        // Enrolment: the QR code is drawn in the page; the key to type is one click away.
        await opened.navigate('Your account');
        await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
        const qr = page.getByRole('img', { name: /QR code/ });
        await qr.waitFor();
        expect(await qr.locator('path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
        await shot('enrol-qr');
        const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        await page.getByLabel('Code from the app').fill(currentTotp(secret, Date.now()));
        await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
        await page.getByTestId('recovery-codes').waitFor();
        const codes = await page.getByTestId('recovery-codes').locator('li code').allTextContents();
        expect(codes).toHaveLength(10);
        await shot('recovery-codes');
        await page.getByRole('button', { name: 'I have saved them' }).click();
        await page.getByText('10 of your recovery codes are left.').waitFor();
        await shot('account');

        // Sign-in with a recovery code in place of the app's code.
        const signInWithRecoveryCode = async (email: string, code: string) => {
          await page.getByRole('heading', { name: 'Sign in' }).waitFor();
          await page.getByLabel('Email').fill(email);
          await page.getByLabel('Password').fill(PASSWORD);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByLabel('Authenticator code').waitFor();
          await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
          await page.getByLabel('Recovery code').fill(code);
        };
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await signInWithRecoveryCode(owner, codes[0]!);
        await shot('sign-in-recovery-code');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
        await opened.navigate('Your account');
        await page.getByText('9 of your recovery codes are left.').waitFor();
        // A used code is refused the second time.
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();
        await signInWithRecoveryCode(owner, codes[0]!);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('The email, password or code is not right.').waitFor();

        // The finance user turns two-factor sign-in on (the owner resets it below), then reads
        // the Team page: no control an owner's role would need.
        await page.goto(financeInvite.link);
        await opened.acceptInvite(PASSWORD);
        await opened.navigate('Your account');
        await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
        const financeSecret = (await page.getByTestId('totp-secret').textContent()) ?? '';
        await page.getByLabel('Code from the app').fill(currentTotp(financeSecret, Date.now()));
        await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
        await page.getByRole('button', { name: 'I have saved them' }).click();
        await page.getByText('Sign-in asks for a code').waitFor();
        await opened.navigate('Settings');
        await page.getByRole('link', { name: 'Team' }).click();
        await page.getByRole('cell', { name: owner, exact: true }).waitFor();
        await page.getByTestId('totp-rule').getByText('leaves two-factor sign-in to each user').waitFor();
        await expectNoControls(page);
        await shot('team-finance');
        await page.getByRole('button', { name: 'Sign out', exact: true }).click();

        // The owner: each change that ends someone's sessions is asked about first.
        await signInWithRecoveryCode(owner, codes[1]!);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
        await page.goto(`${base}/console/settings/team`);

        // The owner resets the finance user's second factor, after a confirmation naming them.
        const financeRow = page.getByRole('row').filter({ hasText: finance });
        await financeRow.getByRole('cell', { name: 'on', exact: true }).waitFor();
        await page.getByRole('button', { name: `Reset two-factor of ${finance}` }).click();
        const resetDialog = page.getByRole('dialog');
        await resetDialog.getByText(`Reset two-factor sign-in of ${finance}?`).waitFor();
        await shot('team-confirm-reset');
        await expectNoSidewaysScroll(page);
        await resetDialog.getByRole('button', { name: 'Reset two-factor' }).click();
        await resetDialog.waitFor({ state: 'detached' });
        await financeRow.getByRole('cell', { name: 'off', exact: true }).waitFor();
        expect(await page.getByRole('button', { name: `Reset two-factor of ${finance}` }).count()).toBe(0);
        await shot('team-after-reset');
        await expectNoSidewaysScroll(page);

        const role = page.getByLabel(`Role of ${finance}`);
        await role.selectOption('viewer');
        const dialog = page.getByRole('dialog');
        await dialog.getByText(`Change the role of ${finance}?`).waitFor();
        await dialog.getByText('From finance to viewer').waitFor();
        await shot('team-confirm-role');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        expect(await role.inputValue()).toBe('finance');
        await page.getByRole('button', { name: `Remove ${finance}` }).click();
        await dialog.getByText(`Remove ${finance}?`).waitFor();
        await shot('team-confirm-remove');
        await dialog.getByRole('button', { name: 'Remove' }).click();
        await page.getByRole('cell', { name: finance, exact: true }).waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Invite a teammate' }).click();
        await dialog.getByText('Changes nothing, sees no finance.').waitFor();
        await shot('team-invite-roles');
        await page.keyboard.press('Escape');

        expect(opened.foreign, opened.foreign.join('\n')).toEqual([]);
        expect(opened.errors, opened.errors.join('\n')).toEqual([]);
      } finally {
        await opened?.browser.close();
      }
    }, 180_000);
  }
});

/** The page is no wider than the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The Team page as a role below owner: nothing to change and no button that would be refused. */
async function expectNoControls(page: Page) {
  const main = page.locator('main');
  expect(await main.locator('select').count()).toBe(0);
  expect(await main.getByRole('checkbox').count()).toBe(0);
  expect(await main.getByRole('button', { name: /Invite|Remove|Reset/ }).count()).toBe(0);
}
