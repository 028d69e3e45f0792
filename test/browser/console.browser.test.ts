import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../../src/modules/console/totp.js';
import { inviteUser } from '../../src/modules/console/users.service.js';
import { disableEndpoint } from '../../src/modules/webhooks/webhooks.repo.js';
import { makeSeller } from '../factories.js';
import { useTestApp } from '../harness.js';
import { deliverAll, startReceiver } from '../webhook-receiver.js';
import { BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';

/**
 * The seller console's journeys in Debian's chromium (as the /docs test): invite, password,
 * keys, the request log, webhooks (a delivery, a failure, resend, replay), the team, two-factor sign-in. A screenshot of every page goes to the
 * CI artifacts and axe-core checks each one for serious or critical violations.
 */
const PASSWORD = 'a long console passphrase';

describe.skipIf(BROWSER_SKIPPED)('the seller console in a browser', () => {
  const t = useTestApp({ allowInsecureWebhooks: true });
  let base: string;
  let page: Page;
  let opened: ConsoleBrowser;
  let errors: string[];
  let foreign: string[];

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    opened = await openConsoleBrowser(base);
    ({ page, errors, foreign } = opened);
  });
  afterAll(async () => {
    await opened?.browser.close();
  });

  const check = (name: string) => opened.check(name);

  it('walks invite, keys, request log, team, two-factor sign-in and sign-out', async () => {
    const seller = await makeSeller(t);
    const email = 'owner@seller.example';
    const invite = await inviteUser(t.ctx, {
      companyId: seller.company.id,
      email,
      role: 'owner',
      invitedBy: 'operator',
      source: 'cli',
    });
    await page.goto(invite.link.replace(t.config.publicUrl, base));
    await page.getByText('You are invited as').waitFor();
    await check('invite');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
    await page.getByText('Create a sandbox key').waitFor();
    await check('home');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create sandbox key' }).click();
    await page.getByLabel('Name').fill('Web shop');
    await page.getByLabel('Allowed IPs').fill('127.0.0.1');
    await page.getByText('reserved_range').waitFor();
    await check('key-allowlist-refused');
    await page.getByLabel('Allowed IPs').fill('');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(/^service_sk_sbx_/);
    await check('key-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('cell', { name: 'Web shop' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await check('keys');

    const api = `${base}/api/seller/v1`;
    const ok = await fetch(`${api}/whoami`, { headers: { authorization: `Bearer ${secret}` } });
    expect(ok.status).toBe(200);
    const failed = await fetch(`${api}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 42 }),
    });
    const { requestId } = (await failed.json()) as { requestId: string };
    await page.getByRole('link', { name: 'Request log' }).click();
    await page.getByLabel('Request id').fill(requestId);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(requestId).waitFor();
    await page.getByRole('button', { name: 'Show error' }).click();
    await page.getByText('"VALIDATION_FAILED"').waitFor();
    await check('request-log');

    let answer = 204;
    const receiver = await startReceiver((res) => res.writeHead(answer).end());
    try {
      const rows = page.locator('#deliveries-title').locator('xpath=ancestor::section').locator('tbody tr');
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByText('No sandbox endpoints yet').waitFor();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('checkbox', { name: 'order.fulfilled' }).check();
      await page.getByRole('checkbox', { name: 'order.failed' }).check();
      await page.getByLabel('Example payload').selectOption('order.fulfilled');
      await page.getByTestId('example-payload').getByText('"orderReference"').waitFor();
      await check('webhook-new');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have stored it' }).click();

      await page.getByRole('button', { name: 'Send test' }).click();
      await page.getByText('A test.ping event is on its way').waitFor();
      await deliverAll(t);
      await rows.locator('.pill-done').first().waitFor();
      expect(receiver.received).toHaveLength(1);

      answer = 500;
      await page.getByRole('button', { name: 'Send test' }).click();
      await deliverAll(t);
      await rows.locator('.pill-error').first().waitFor({ timeout: 10_000 });
      await check('webhook-failed');
      const failedEvent = receiver.received[1]!.json.eventId;

      answer = 204;
      await rows.filter({ hasText: failedEvent }).getByRole('button', { name: 'Resend' }).click();
      await page.getByText(`Event ${failedEvent} queued again`).waitFor();
      await deliverAll(t);
      expect(receiver.received.map((r) => r.json.eventId).slice(-1)).toEqual([failedEvent]);

      // Setup: a third test whose retries are exhausted (its delivery is final and failed).
      answer = 500;
      await page.getByRole('button', { name: 'Send test' }).click();
      await deliverAll(t);
      const lastEvent = receiver.received.at(-1)!.json.eventId;
      await t.ctx.db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed' })
        .where('event_id', '=', lastEvent)
        .execute();
      answer = 204;
      await page.getByLabel('Replay failed and undelivered events since').fill('2020-01-01T00:00');
      await page.getByRole('button', { name: 'Replay' }).click();
      await page.getByText('1 event queued again').waitFor();
      await deliverAll(t);
      expect(receiver.received.at(-1)!.json.eventId).toBe(lastEvent);
      await rows.filter({ hasText: lastEvent }).locator('.pill-done').first().waitFor({ timeout: 10_000 });
      await check('webhooks');

      // The breaker disables the endpoint: every page shows the notice until it is enabled.
      const endpointId = (
        await t.ctx.db.selectFrom('webhook_endpoints').select('id').executeTakeFirstOrThrow()
      ).id;
      await disableEndpoint(t.ctx.db, endpointId, 'consecutive_failures', t.ctx.clock.now());
      await page.reload();
      await page.getByRole('link', { name: 'Home' }).click();
      await page.getByText('A webhook endpoint is disabled').waitFor();
      await check('webhook-disabled-notice');
      await page.getByRole('link', { name: 'Review and enable it' }).click();
      await page.getByText(`${receiver.url} is disabled`).waitFor();
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByText('Endpoint enabled').waitFor();
      await page.getByRole('link', { name: 'Home' }).click();
      await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
      expect(await page.getByText('A webhook endpoint is disabled').count()).toBe(0);
    } finally {
      await receiver.close();
    }

    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: 'Invite a teammate' }).click();
    await page.getByLabel('Email').fill('dev@seller.example');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    await page.getByTestId('invite-link').waitFor();
    await check('team-invite');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const totp = (await page.getByTestId('totp-secret').textContent()) ?? '';
    await page.getByLabel('Code from the app').fill(currentTotp(totp, t.ctx.clock.now()));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByText('Sign-in asks for a code').waitFor();
    await check('account');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('user.totp_enabled').waitFor();
    await check('audit');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authenticator code').waitFor();
    await check('sign-in-code');
    await page.getByLabel('Authenticator code').fill(currentTotp(totp, t.ctx.clock.now()));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    expect(foreign, foreign.join('\n')).toEqual([]);
    expect(errors, errors.join('\n')).toEqual([]);
  }, 90_000);
});
