import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SELLER_ID } from '../../src/modules/demo/demo.service.js';
import { ADMIN_TOKEN, type CompiledServer, startCompiledServer } from '../compiled-server.js';
import { BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';
import { operatorEnv } from './console-journey.js';

/**
 * The console's catalog, allocations, usage and settings pages in Debian's chromium, on the
 * compiled server with the demo production world (`sdapi seed demo`): request an increase on a
 * paused allocation, edit the footprint, see a low-stock notice. Every page is screenshotted into
 * the CI artifacts and checked by axe-core (no serious or critical violation).
 */
const PASSWORD = 'a long console passphrase';

describe.skipIf(BROWSER_SKIPPED)('console catalog, usage and settings in a browser', () => {
  let server: CompiledServer;
  let opened: ConsoleBrowser;
  let page: Page;

  /** The operator CLI against the server's own database. */
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ['bin/sdapi.js', ...args], {
      env: { ...operatorEnv(server, server.seller), SDAPI_ADMIN_TOKEN: ADMIN_TOKEN },
      encoding: 'utf8',
    });
  const admin = (method: string, path: string, body: unknown) =>
    fetch(`${server.admin}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startCompiledServer();
    // Nothing here is refused on purpose: every console error counts.
    opened = await openConsoleBrowser(server.seller, { refusalsExpected: false });
    page = opened.page;
  }, 120_000);
  afterAll(async () => {
    await opened?.browser.close();
    server?.process.kill();
  });

  const check = (name: string) => opened.check(name);

  it('requests an increase on a blocked allocation, edits the footprint, sees a notice', async () => {
    cli('seed', 'demo', '--allowed-ip', '8.8.8.8');
    const invited = cli(
      'users',
      'invite',
      '--company',
      DEMO_SELLER_ID,
      '--email',
      'ops@demo.example',
      '--role',
      'owner',
    );
    const link = /https?:\/\/\S+#\S+/.exec(invited)?.[0];
    expect(link, invited).toBeTruthy();
    await page.goto(`${server.seller}/console/invite#${link!.split('#')[1]}`);
    await opened.acceptInvite(PASSWORD);
    await opened.showProductionData();

    const allocations = (await page.evaluate(() =>
      fetch('/console/api/allocations').then((r) => r.json()),
    )) as { data: { id: string; skuCode: string }[] };
    const [paused, low] = allocations.data;
    expect((await admin('PATCH', `/allocations/${paused!.id}`, { status: 'paused' })).status).toBe(200);
    expect((await admin('PATCH', `/allocations/${low!.id}`, { quantityLimit: 10 })).status).toBe(200);

    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.locator('tbody tr').first().waitFor();
    await check('catalog');
    await page.locator('tbody tr a').first().click();
    await page.getByRole('heading', { name: 'Prices per country' }).waitFor();
    await check('catalog-product');
    const catalogTab = (name: string) =>
      page.getByRole('navigation', { name: 'Catalog' }).getByRole('link', { name });
    expect(await catalogTab('Products').getAttribute('aria-current')).toBe('page');
    expect(await catalogTab('Allocations').getAttribute('aria-current')).toBeNull();

    await page.getByRole('link', { name: 'Allocations' }).click();
    const row = page.locator('tr', { hasText: paused!.skuCode });
    await row.getByText('The publisher has paused this allocation.').waitFor();
    await check('allocations');
    await row.getByRole('button', { name: 'Request more keys' }).click();
    await page.getByLabel('Extra keys').fill('50');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText(/Sent: the publisher decides|Approved at once/).waitFor();
    await check('allocation-request');
    await page.keyboard.press('Escape');
    await page.locator('tr', { hasText: paused!.skuCode }).getByText('pending').first().waitFor();

    await page.locator('tr', { hasText: low!.skuCode }).getByRole('link', { name: low!.skuCode }).click();
    await page.getByRole('img', { name: /Keys left on the allocation/ }).waitFor();
    await check('stock');
    expect(await catalogTab('Products').getAttribute('aria-current')).toBe('page');

    await page.getByRole('link', { name: 'Partners' }).click();
    await page.getByText('Blue Harbor Interactive').waitFor();
    await check('partners');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Footprint' }).waitFor();
    await page.getByLabel(/Countries you sell in/).fill('DE, FR, AT');
    await page.getByRole('button', { name: 'Save footprint' }).click();
    await page.getByText('Footprint saved.').waitFor();
    expect(await page.getByLabel(/Countries you sell in/).inputValue()).toBe('AT, DE, FR');
    await check('settings');

    await page.getByRole('link', { name: 'Notices' }).click();
    for (let tries = 0; ; tries++) {
      if ((await page.getByText(/is low: 10 keys left/).count()) > 0) break;
      if (tries > 30) throw new Error('no low-stock notice appeared');
      await page.waitForTimeout(1000);
      await page.reload();
    }
    await check('notices');
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('0 unread.', { exact: false }).waitFor();

    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('combobox', { name: 'Role of ops@demo.example' }).waitFor();
    await check('settings-team');

    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('img', { name: 'API calls per route class per day' }).waitFor();
    await page.getByRole('heading', { name: 'Busiest keys' }).waitFor();
    await check('usage');

    expect(opened.errors, opened.errors.join('\n')).toEqual([]);
  }, 180_000);
});
