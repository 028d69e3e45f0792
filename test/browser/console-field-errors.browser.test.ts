import { execFileSync } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SELLER_ID } from '../../src/modules/demo/demo.service.js';
import { ADMIN_TOKEN, type CompiledServer, startCompiledServer } from '../compiled-server.js';
import {
  BROWSER_SKIPPED,
  type ConsoleBrowser,
  lookAtBothSizes,
  openConsoleBrowser,
  VIEWPORTS,
} from './browser.js';
import { operatorEnv, sellerApi } from './console-journey.js';

/**
 * Bad input in several console forms, in Debian's chromium on the compiled server with the demo
 * world: each problem is one sentence in the seller's words, on the page once, inside the
 * field it is about (and the field points at it); the notice above says only that the form has
 * problems. Then the request log: a refused call opened on its own page, and another company's
 * request id answered "not found". Every page at 1280x800 and 390x844: a screenshot, no axe-core
 * violation of any impact, and no sideways scrolling of the page.
 */
const PASSWORD = 'a long console passphrase';

describe.skipIf(BROWSER_SKIPPED)('console field errors and the request page in a browser', () => {
  let server: CompiledServer;
  let opened: ConsoleBrowser;
  let page: Page;

  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ['bin/sdapi.js', ...args], {
      env: { ...operatorEnv(server, server.seller), SDAPI_ADMIN_TOKEN: ADMIN_TOKEN },
      encoding: 'utf8',
    });

  beforeAll(async () => {
    server = await startCompiledServer({ LOG_LEVEL: 'warn' });
    opened = await openConsoleBrowser(server.seller, { viewport: VIEWPORTS[0] });
    page = opened.page;
  }, 120_000);
  afterAll(async () => {
    await opened?.browser.close();
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  /** Both sizes: a screenshot each, no axe-core violation, nothing wider than the window. */
  const look = (name: string) => lookAtBothSizes(page, name);

  /**
   * `sentence` is on the page exactly once, inside the same field as `field`, and `field` is
   * marked invalid and described by it.
   */
  async function expectBeside(field: Locator, sentence: string) {
    const shown = page.getByText(sentence, { exact: true });
    await shown.waitFor();
    expect(await shown.count()).toBe(1);
    expect((await page.locator('body').textContent()) ?? '').toContain(sentence);
    expect(((await page.locator('body').textContent()) ?? '').split(sentence)).toHaveLength(2);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const id = await shown.getAttribute('id');
    expect((await field.getAttribute('aria-describedby'))?.split(' ')).toContain(id);
    const sameField = await field.evaluate(
      (input, errorId) => input.closest('.field')?.contains(document.getElementById(errorId!)) ?? false,
      id,
    );
    expect(sameField, `${sentence} is not inside the field`).toBe(true);
  }

  it('says each problem once, beside its field, in the seller’s words', async () => {
    cli('seed', 'demo', '--allowed-ip', '8.8.8.8');
    const invited = cli(
      ...['users', 'invite', '--company', DEMO_SELLER_ID, '--email', 'forms@demo.example', '--role', 'owner'],
    );
    const link = /https?:\/\/\S+#\S+/.exec(invited)?.[0];
    expect(link, invited).toBeTruthy();
    await page.goto(`${server.seller}/console/invite#${link!.split('#')[1]}`);
    await opened.acceptInvite(PASSWORD);

    // A key name of 101 characters, and an allowlist entry with its host bits set.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create sandbox key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('k'.repeat(101));
    await dialog.getByLabel('Allowed IPs').fill('8.8.8.9/24');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expectBeside(dialog.getByLabel('Name'), 'Name can have at most 100 characters.');
    await expectBeside(
      dialog.getByLabel('Allowed IPs'),
      "8.8.8.9/24 does not start its range: write the range's first address, such as 198.51.100.0/24 rather than 198.51.100.7/24.",
    );
    expect((await dialog.textContent()) ?? '').not.toMatch(/host_bits_set|must NOT/);
    await look('form-key-refused');
    await page.keyboard.press('Escape');

    // A webhook URL the service refuses: a private address; nothing about the service's settings.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill('https://10.1.2.3/hooks');
    await page.getByRole('checkbox', { name: 'order.fulfilled' }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const urlSentence =
      'This address is in a private or reserved range that events are never sent to; give a public address.';
    await expectBeside(page.getByLabel('Endpoint URL'), urlSentence);
    const notice = page.getByRole('dialog').getByRole('alert');
    expect((await notice.textContent()) ?? '').toBe('Some fields need a change; each says what beside it.');
    expect((await page.getByRole('dialog').textContent()) ?? '').not.toMatch(/SDAPI_|setting|url host/);
    await look('form-webhook-refused');
    await page.keyboard.press('Escape');

    // An empty quantity, then one the API refuses (not a whole number).
    await page.goto(`${server.seller}/console/catalog/allocations`);
    await page.getByRole('button', { name: 'Request more keys' }).first().click();
    const quantity = page.getByLabel('Extra keys');
    await quantity.fill('');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectBeside(quantity, 'Extra keys is required.');
    await quantity.fill('2.5');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectBeside(quantity, 'Extra keys must be a whole number.');
    await look('form-quantity-refused');
    await page.keyboard.press('Escape');

    expect(opened.errors.filter((error) => !/status of 4(03|22)/.test(error))).toEqual([]);
  }, 180_000);

  it('opens a request on its own page, and another company’s request id as not found', async () => {
    const key = JSON.parse(
      cli('key', 'create', '--company', DEMO_SELLER_ID, '--environment', 'sandbox', '--json'),
    ) as { key: string };
    const api = sellerApi(server.seller, key.key);
    const refused = await api('POST', '/keys', { name: 'n'.repeat(101) });
    expect(refused.status).toBe(422);
    const { requestId } = (await refused.json()) as { requestId: string };

    await page.goto(`${server.seller}/console/logs`);
    await page.getByLabel('Key').selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: requestId });
    await row.waitFor();
    await look('request-log');
    await row.getByRole('link').click();
    // The address also names the environment (`?env=`).
    await page.waitForURL((url) => url.pathname.endsWith(`/console/logs/${requestId}`));
    const body = page.getByTestId('error-body');
    await body.getByText('"VALIDATION_FAILED"').waitFor();
    await page.getByRole('link', { name: 'Documentation of VALIDATION_FAILED' }).waitFor();
    await page.getByRole('button', { name: 'Copy request id' }).waitFor();
    await page.getByRole('button', { name: 'Copy error body' }).waitFor();
    await look('request-detail');

    // Another company's request: a fresh company's own call, unknown to this one.
    const other = JSON.parse(cli('company', 'create', '--name', 'Elsewhere Ltd', '--json')) as { id: string };
    const otherKey = JSON.parse(
      cli('key', 'create', '--company', other.id, '--environment', 'sandbox', '--json'),
    ) as { key: string };
    const theirs = await sellerApi(server.seller, otherKey.key)('GET', '/whoami');
    const theirId = theirs.headers.get('x-request-id') ?? '';
    expect(theirId).toMatch(/^req_/);
    await page.goto(`${server.seller}/console/logs/${theirId}`);
    await page.getByRole('heading', { name: 'Request not found' }).waitFor();
    expect((await page.locator('body').textContent()) ?? '').not.toContain('/whoami');
    await look('request-not-found');
  }, 120_000);
});
