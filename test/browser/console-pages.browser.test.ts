import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompiledServer, freePort, startCompiledServer } from '../compiled-server.js';
import { startReceiver } from '../webhook-receiver.js';
import {
  ARTIFACTS,
  BROWSER_SKIPPED,
  type ConsoleBrowser,
  lookAtBothSizes,
  openConsoleBrowser,
} from './browser.js';
import { operatorApi, operatorCli, sandboxOrder, sellerApi } from './console-journey.js';

/**
 * Every console page, signed in as an owner of a sandbox company with orders, a returned key,
 * a webhook endpoint and a request log, in Debian's chromium on the compiled server (`npm run
 * build` first). Each page at 1280x800 and 390x844: a screenshot, no axe-core violation of any
 * impact, and no sideways scroll of the page. On the phone the navigation is a menu behind one
 * button that closes again on navigation. The activity CSV downloads gzipped and plain.
 */
const PASSWORD = 'a long console passphrase';
const EMAIL = 'owner@pages.example';

describe.skipIf(BROWSER_SKIPPED)('every console page at a laptop and a phone size', () => {
  let server: CompiledServer;
  let base: string;
  let opened: ConsoleBrowser;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    [server, receiver, opened] = await Promise.all([
      startCompiledServer({
        PORT: String(port),
        PUBLIC_URL: base,
        LOG_LEVEL: 'warn',
        SDAPI_ALLOW_INSECURE_WEBHOOKS: '1',
      }),
      startReceiver((res) => res.writeHead(204).end()),
      // Nothing here is refused on purpose: every console error counts.
      openConsoleBrowser(base, { refusalsExpected: false, viewport: { width: 1280, height: 800 } }),
    ]);
    page = opened.page;
  }, 120_000);
  afterAll(async () => {
    await opened?.browser.close();
    await receiver?.close();
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  /** Opens a console path and waits until its heading shows and nothing is loading. */
  async function visit(path: string, heading: string | RegExp) {
    await page.goto(`${base}/console${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  }

  it('lays out every page for both sizes, with the navigation in a menu on the phone', async () => {
    const company = await operatorApi(server, 'POST', '/companies', { name: 'Layout Games', country: 'US' });
    const invite = await operatorCli(
      server,
      base,
      ...['users', 'invite', '--company', company.data.id, '--email', EMAIL, '--role', 'owner'],
    );
    const key = await operatorApi(server, 'POST', `/companies/${company.data.id}/keys`, {
      environment: 'sandbox',
      name: 'Web shop',
    });
    const api = sellerApi(base, key.data.key);

    // The integration's traffic: two orders, a returned key, an endpoint that receives events.
    const orders = [];
    for (let i = 0; i < 2; i++) {
      const placed = await api('POST', '/orders', sandboxOrder());
      expect(placed.status).toBe(200);
      orders.push(
        (await placed.json()).data as { orderReference: string; orderReadableId: string; keyIds: string[] },
      );
    }
    const returned = await api('POST', '/keys/return', {
      keyIds: orders[0]!.keyIds,
      reason: 'buyer changed mind',
    });
    expect(returned.status).toBe(200);
    const endpoint = await api('POST', '/webhooks', { url: receiver.url, eventTypes: ['order.fulfilled'] });
    expect(endpoint.status).toBe(201);
    // The always-live product: the first one listed may be the churning fixture, which can
    // leave the catalog between this read and the page's.
    type ProductDetail = { id: string; name: string; skus: { id: string; code: string }[] };
    const products = (await (await api('GET', '/products')).json()) as { data: { id: string }[] };
    const details: ProductDetail[] = [];
    for (const { id } of products.data) {
      details.push(((await (await api('GET', `/products/${id}`)).json()) as { data: ProductDetail }).data);
    }
    const product = details.find((p) => p.skus.some((s) => s.code === 'SANDBOX-ALWAYS-001'))!;
    expect(product).toBeDefined();
    const sku = product.skus.find((s) => s.code === 'SANDBOX-ALWAYS-001')!;

    await page.goto(invite.link);
    await opened.acceptInvite(PASSWORD);

    const pages: [string, string, string | RegExp][] = [
      ['home', '/', 'Integration readiness'],
      ['catalog', '/catalog', 'Catalog'],
      ['catalog-allocations', '/catalog/allocations', 'Allocations'],
      ['catalog-partners', '/catalog/partners', 'Partners'],
      ['product', `/catalog/products/${product.id}`, product.name],
      ['stock', `/catalog/skus/${sku.id}`, `Stock of ${sku.code}`],
      ['keys', '/keys', 'API keys'],
      ['webhooks', '/webhooks', 'Webhooks'],
      ['orders', '/orders', 'Orders'],
      ['order', `/orders/${orders[1]!.orderReadableId}`, `Order ${orders[1]!.orderReference}`],
      ['logs', '/logs', 'Request log'],
      ['finance-statements', '/finance', 'Finance'],
      ['finance-sales', '/finance/sales', 'Finance'],
      ['finance-activity', '/finance/activity', 'Finance'],
      ['finance-invoices', '/finance/invoices', 'Finance'],
      ['usage', '/usage', 'Usage'],
      ['settings', '/settings', 'Settings'],
      ['settings-notices', '/settings/notices', 'Notices'],
      ['team', '/settings/team', 'Team'],
      ['audit', '/audit', 'Audit log'],
      ['account', '/account', 'Your account'],
    ];
    for (const [name, path, heading] of pages) {
      await visit(path, heading);
      await lookAtBothSizes(page, `page-${name}`);
    }

    // The catalog names each product's publisher, its SKUs and its price.
    await visit('/catalog', 'Catalog');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: product.name }) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[1]).not.toBe('—');
    expect(cells[2]).toContain(sku.code);
    expect(cells[3]).toMatch(/^\$\d/);

    // The audit log narrowed to the return, the API key's.
    await visit('/audit', 'Audit log');
    await page.getByLabel('Action').fill('keys.returned');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/action=keys\.returned/);
    await expect.poll(() => page.locator('main tbody tr').count()).toBe(1);
    expect(await page.locator('main tbody tr td').first().textContent()).toMatch(/\d/);
    await page.getByRole('cell', { name: `key:${key.data.id}` }).waitFor();
    await lookAtBothSizes(page, 'page-audit-filtered');

    // The activity CSV: uncompressed beside the gzip file, the same rows.
    await visit('/finance/activity', 'Finance');
    await page.getByRole('button', { name: 'Export these entries as CSV' }).click();
    const plainLink = page.getByRole('link', { name: /^Download CSV \(\d+ rows?\)$/ });
    await plainLink.waitFor();
    const plain = await page.request.get(new URL((await plainLink.getAttribute('href'))!, base).href);
    expect(plain.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const gzipped = await page.request.get(
      (await page.getByRole('link', { name: 'Download compressed (.csv.gz)' }).getAttribute('href'))!,
    );
    expect(await plain.text()).toBe(gunzipSync(await gzipped.body()).toString('utf8'));
    await lookAtBothSizes(page, 'page-finance-activity-export');

    // The phone: one menu button; the navigation shows only while it is expanded, and a link closes it.
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Console' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Orders' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/console-page-menu-open-phone.png`, fullPage: true });
    await nav.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    await menu.click();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    // On a wide screen there is no menu button: the navigation is always there.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await menu.isVisible()).toBe(false);
    expect(await nav.isVisible()).toBe(true);

    expect(opened.foreign, opened.foreign.join('\n')).toEqual([]);
    expect(opened.errors, opened.errors.join('\n')).toEqual([]);
  }, 300_000);
});
