import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../../src/modules/console/totp.js';
import { type CompiledServer, IP_PEPPER, MASTER_KEY, startCompiledServer } from '../compiled-server.js';
import { startReceiver } from '../webhook-receiver.js';
import { BROWSER_SKIPPED, openConsoleBrowser } from './browser.js';
import { sandboxOrder, sellerApi, until } from './console-journey.js';

/**
 * A fresh owner's first hour, from the start banner alone: `npm start` on an empty installation,
 * the banner's invite command run as printed (the operator CLI), then in chromium at 1280x800
 * the invite, a password, two-factor enrolment from the QR code's secret, a recovery code kept,
 * a sandbox key, a webhook to a local receiver, an order over HTTP with that key and its delivery
 * on the order page, a failing call found in the request log by its request id, a refund from
 * the order page, sign-in again with the recovery code, and the order found by its key code.
 * Then the environment in the address (a shared link opens the right one) and, at 390x844, the
 * orders pages. axe-core finds no violation of any impact on any page; the key code is in no page, and in no line the
 * server logged.
 */
const run = promisify(execFile);
const PASSWORD = 'a long first-owner passphrase';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The browser's errors but the 404s the orders pages answer on purpose (no such order, unknown code). */
const unexpected = (errors: string[]) =>
  errors.filter((error) => !/status of 404 .*\/console\/api\/orders\//.test(error));

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations of any impact (the shared check fails on serious and critical ones only). */
async function expectNoAxeViolation(page: Page, name: string) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the evaluated script defines
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v: { id: string; nodes: { target: string[] }[] }) =>
        `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
    );
  });
  expect(violations, `${name}: ${violations.join('\n')}`).toEqual([]);
}

/** Nothing wider than the window: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const [content, window] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(content).toBeLessThanOrEqual(window);
}

describe.skipIf(BROWSER_SKIPPED)('a fresh owner from the start banner, in a browser', () => {
  let server: CompiledServer;
  let base: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let email = '';
  let totpSecret = '';
  /** What the first pass leaves for the phone pass: an order and the key code of its kept key. */
  const sold = { readableId: '', reference: '', code: '' };

  beforeAll(async () => {
    [server, receiver] = await Promise.all([
      startCompiledServer({ npm_config_loglevel: 'silent', SDAPI_ALLOW_INSECURE_WEBHOOKS: '1' }, [
        'npm',
        'start',
      ]),
      startReceiver(),
    ]);
    base = server.seller;
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  async function signIn(page: Page, secondFactor: { recoveryCode: string } | { totp: string }) {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Authenticator code').waitFor();
    if ('recoveryCode' in secondFactor) {
      await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(secondFactor.recoveryCode);
    } else await page.getByLabel('Authenticator code').fill(secondFactor.totp);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
  }

  it('goes from the banner to a refunded order found by its key code (1280x800)', async () => {
    // The banner: the console's address and the command that lets the first owner in.
    await until('the start banner', () => /npx sdapi users invite/.test(server.output()), 30_000);
    const printed = server.output().match(/^ {2}(.*npx sdapi users invite .*)$/m)?.[1] ?? '';
    email = printed.match(/--email (\S+)/)?.[1] ?? '';
    expect(email).toBe('you@example.com');
    // Pasted in another shell as printed; that shell has the secrets the server was started with.
    const command = printed.replace('npx sdapi', `${process.execPath} bin/sdapi.js`);
    const { stdout } = await run('sh', ['-c', command], {
      env: { PATH: process.env.PATH ?? '', SDAPI_MASTER_KEY: MASTER_KEY, SDAPI_IP_PEPPER: IP_PEPPER },
    });
    const link = stdout.match(/https?:\/\/\S+\/console\/invite#\S+/)?.[0] ?? '';
    expect(link, stdout).not.toBe('');

    const opened = await openConsoleBrowser(new URL(link).origin, { viewport: DESKTOP });
    const { page } = opened;
    const check = async (name: string) => {
      await opened.check(`first-owner-${name}`);
      await expectNoAxeViolation(page, name);
      await expectNoSidewaysScroll(page);
    };
    try {
      await page.goto(link);
      await page.getByText('You are invited as').waitFor();
      await check('invite');
      await opened.acceptInvite(PASSWORD);
      await check('home');

      // Two-factor sign-in: the secret the QR code carries, read as the page also prints it.
      await page.getByRole('link', { name: 'Your account' }).click();
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await page.getByRole('img', { name: /QR code/ }).waitFor();
      await check('enrol');
      totpSecret = (await page.getByTestId('totp-secret').textContent()) ?? '';
      expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
      await page.getByLabel('Code from the app').fill(currentTotp(totpSecret, Date.now()));
      await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await page.getByTestId('recovery-codes').waitFor();
      const [recoveryCode] = await page.getByTestId('recovery-codes').locator('li code').allTextContents();
      expect(recoveryCode).toBeTruthy();
      await check('recovery-codes');
      await page.getByRole('button', { name: 'I have saved them' }).click();

      // A sandbox key.
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('button', { name: 'Create sandbox key' }).click();
      await page.getByLabel('Name').fill('Web shop');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('secret').textContent()) ?? '';
      expect(secret).toMatch(/^service_sk_sbx_/);
      await check('key-secret');
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await page.getByRole('cell', { name: 'Web shop' }).waitFor();

      // In production, the demo company has no production access yet: said before any form.
      await page.getByText('Production', { exact: true }).click();
      await page.getByText('Production keys need production access for your company.').waitFor();
      expect(await page.getByRole('button', { name: 'Create production key' }).count()).toBe(0);
      expect(page.url()).toContain('env=production');
      await check('keys-production-no-access');
      await page.getByText('Sandbox', { exact: true }).click();
      await page.getByRole('button', { name: 'Create sandbox key' }).waitFor();
      expect(page.url()).toContain('env=sandbox');

      // A webhook to the local receiver.
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('checkbox', { name: 'order.fulfilled' }).check();
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await check('webhooks');

      // The integration: an order of two keys with the key the browser created.
      const api = sellerApi(base, secret);
      const body = sandboxOrder();
      const placedReply = await api('POST', '/orders', {
        ...body,
        quantity: 2,
        integrationOrderContext: { ...body.integrationOrderContext, salesPriceGrossMinor: 4998 },
      });
      const placed = (await placedReply.json()) as {
        data: { orderId: string; orderReference: string; keyIds: string[]; keys: string[] };
      };
      expect(placedReply.status, JSON.stringify(placed)).toBe(200);
      const [refundedKeyId] = placed.data.keyIds;
      const keptCode = placed.data.keys[1]!;
      await until('the order.fulfilled delivery', () =>
        receiver.received.some((r) => r.json.data.orderReference === placed.data.orderReference),
      );

      // Its delivery, on the order page.
      await page.getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('link', { name: placed.data.orderReference }).click();
      await page.getByRole('heading', { name: `Order ${placed.data.orderReference}` }).waitFor();
      await page.getByRole('cell', { name: 'order.fulfilled' }).waitFor();
      await page.getByText(/succeeded after 1 attempt/).waitFor();
      await page.getByText('2 keys delivered').waitFor();
      await check('order');
      const orderUrl = page.url();
      expect(orderUrl).toContain('env=sandbox');

      // A failing call, found in the request log by its request id.
      const refusedReply = await api('POST', '/orders', sandboxOrder('SANDBOX-NOKEYS-001'));
      expect(refusedReply.status).toBe(409);
      const refusal = (await refusedReply.json()) as { requestId: string };
      await page.getByRole('link', { name: 'Request log' }).click();
      await page.getByLabel('Request id').fill(refusal.requestId);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('row').filter({ hasText: refusal.requestId }).waitFor();
      await check('request-log');

      // A refund from the order page, the amount shown before it is confirmed.
      await page.goto(orderUrl);
      await page.getByRole('button', { name: 'Refund keys' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(refundedKeyId!).check();
      await dialog.getByText('$19.99 (1 × $19.99)').waitFor();
      await dialog.getByLabel('Refund reference').fill(`rf-${placed.data.orderReference}`);
      await check('refund-dialog');
      await dialog.getByRole('button', { name: 'Refund keys' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Refunded 1 of 2').waitFor();
      await page.getByRole('cell', { name: 'Refund', exact: true }).waitFor();
      await check('order-refunded');

      // Later: signed in with the recovery code kept at enrolment.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(page, { recoveryCode: recoveryCode! });

      // Support's search by the key code a buyer sent: the answer is the order, never the code.
      await page.getByRole('link', { name: 'Orders' }).click();
      await page.getByText('Refunded 1 of 2').waitFor();
      await check('orders');
      await page.getByLabel('Key code a buyer sent').fill(` ${keptCode.toLowerCase()} `);
      await page.getByRole('button', { name: 'Find the order' }).click();
      await page.getByRole('heading', { name: `Order ${placed.data.orderReference}` }).waitFor();
      expect(await page.content()).not.toContain(keptCode);
      expect(page.url()).not.toContain(keptCode);
      await page.getByRole('link', { name: '← All orders' }).click();
      await page.getByLabel('Key code a buyer sent').fill('NOT-A-KEY-OF-OURS');
      await page.getByRole('button', { name: 'Find the order' }).click();
      await page.getByText('No order of your company holds that key.').waitFor();
      expect(await page.getByLabel('Key code a buyer sent').inputValue()).toBe('');
      await check('orders-key-code-unknown');

      // A shared link opens its environment; the other environment's address says where the order is.
      await page.getByText('Production', { exact: true }).click();
      await page.getByText('Live data').waitFor();
      await page.goto(orderUrl);
      await page.getByRole('heading', { name: `Order ${placed.data.orderReference}` }).waitFor();
      await page.getByText('Test data').waitFor();
      await page.goto(orderUrl.replace('env=sandbox', 'env=production'));
      await page.getByText('This order is in sandbox').waitFor();
      await check('order-other-environment');
      await page.getByRole('link', { name: 'Open it in sandbox' }).click();
      await page.getByRole('heading', { name: `Order ${placed.data.orderReference}` }).waitFor();

      sold.readableId = new URL(orderUrl).pathname.split('/').pop() ?? '';
      sold.reference = placed.data.orderReference;
      sold.code = keptCode;
      expect(server.output()).not.toContain(keptCode);
      expect(server.output().toLowerCase()).not.toContain(keptCode.toLowerCase());
      expect(opened.foreign, opened.foreign.join('\n')).toEqual([]);
      expect(unexpected(opened.errors), opened.errors.join('\n')).toEqual([]);
    } finally {
      await opened.browser.close();
    }
  }, 240_000);

  it('shows the orders pages at 390x844', async () => {
    expect(sold.readableId).not.toBe('');
    const opened = await openConsoleBrowser(base, { viewport: PHONE });
    const { page } = opened;
    const check = async (name: string) => {
      await opened.check(`first-owner-phone-${name}`);
      await expectNoAxeViolation(page, name);
      await expectNoSidewaysScroll(page);
    };
    try {
      await page.goto(`${base}/console/orders?env=sandbox`);
      // A fresh window: signed in with the authenticator's code of the next time step.
      await signIn(page, { totp: currentTotp(totpSecret, Date.now() + 30_000) });
      await page.goto(`${base}/console/orders?env=sandbox`);
      await page.getByText('Refunded 1 of 2').waitFor();
      await check('orders');
      await page.goto(`${base}/console/orders/${sold.readableId}?env=sandbox`);
      await page.getByRole('heading', { name: `Order ${sold.reference}` }).waitFor();
      await check('order');
      await page.getByRole('button', { name: 'Refund keys' }).click();
      await page.getByRole('dialog').waitFor();
      await check('refund-dialog');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.goto(`${base}/console/orders/${sold.readableId}?env=production`);
      await page.getByText('This order is in sandbox').waitFor();
      await check('order-other-environment');
      expect(unexpected(opened.errors), opened.errors.join('\n')).toEqual([]);
    } finally {
      await opened.browser.close();
    }
  }, 120_000);
});
