import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type CompiledServer, freePort, startCompiledServer } from '../compiled-server.js';
import { BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';

/**
 * Orders and finance in the console, on a running compiled server (`npm run build` first) with
 * the production demo world of `sdapi seed demo`: find an order by reference and see its key ids
 * and events; refund a key from the order page and see the statement and its chart change;
 * download the activity CSV and compare it with GET /activity?format=csv; a finance user sees
 * finance and cannot create keys. Every page is screenshot and checked by axe-core.
 */
const run = promisify(execFile);
const PASSWORD = 'a long console passphrase';

describe.skipIf(BROWSER_SKIPPED)('console orders and finance in a browser', () => {
  let server: CompiledServer;
  let env: Record<string, string>;
  let opened: ConsoleBrowser;
  let page: Page;
  let companyId: string;
  let apiKey: string;
  /** The seller listener: the port given to the server (its PUBLIC_URL). */
  let base: string;

  const sdapi = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['bin/sdapi.js', ...args, '--json'], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return JSON.parse(stdout);
  };
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}/api/seller/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
    });

  async function placeOrder(skuCode: string, unitPriceCents: number, reference: string, deferred: boolean) {
    const placed = await api('/orders', {
      method: 'POST',
      body: JSON.stringify({
        skuCode,
        quantity: 2,
        countryCode: 'US',
        orderReference: reference,
        expectedUnitPriceCents: unitPriceCents,
        immediateFulfilment: !deferred,
        integrationOrderContext: {
          salesCountryCode: 'US',
          currencyCode: 'USD',
          salesTaxRatePercent: 0,
          salesPriceGrossMinor: unitPriceCents * 2,
          salesChannel: 'web',
          consumerIp: '8.8.8.8',
        },
      }),
    });
    const body = await placed.json();
    expect(placed.status, JSON.stringify(body)).toBe(200);
    return body.data as { orderId: string; keyIds: string[]; keys?: string[] };
  }

  async function signInFromInvite(role: 'owner' | 'finance', email: string) {
    const invite = await sdapi('users', 'invite', '--company', companyId, '--email', email, '--role', role);
    await page.goto(`${base}${new URL(invite.link).pathname}${new URL(invite.link).hash}`);
    await opened.acceptInvite(PASSWORD);
    // The demo world is a production company: act on production data.
    await opened.showProductionData();
  }

  beforeAll(async () => {
    const port = await freePort();
    env = {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SDAPI_DEV_LOOPBACK_ALLOWLIST: '1',
      LOG_LEVEL: 'warn',
    };
    base = env.PUBLIC_URL!;
    server = await startCompiledServer(env);
    env = {
      ...env,
      DATA_DIR: server.dataDir,
      DATABASE_URL: `sqlite:${join(server.dataDir, 'sdapi.sqlite')}`,
      SDAPI_ADMIN_TOKEN: ADMIN_TOKEN,
      SDAPI_MASTER_KEY: 'ab'.repeat(32),
      SDAPI_IP_PEPPER: 'compiled-pepper-0123456789',
    };
    const seeded = await sdapi('seed', 'demo');
    companyId = seeded.sellerCompanyId;
    apiKey = seeded.productionKey;
    opened = await openConsoleBrowser(base, { downloads: true, viewport: { width: 1280, height: 800 } });
    page = opened.page;
  }, 180_000);
  afterAll(async () => {
    await opened?.browser.close();
    server?.process.kill('SIGTERM');
    await server?.exited;
  });

  it('finds an order, refunds a key, sees the statement change and downloads the activity CSV', async () => {
    const allocations = await (await api('/allocations?sellableOnly=true&limit=100')).json();
    const allocation = (allocations.data as { skuCode: string; allocationId?: string; id?: string }[])[0]!;
    const preview = await (
      await api('/orders/preview', {
        method: 'POST',
        body: JSON.stringify({ skuCode: allocation.skuCode, quantity: 1, countryCode: 'US' }),
      })
    ).json();
    const price = preview.data.lines?.[0]?.unitPriceCents ?? preview.data.unitPriceCents;
    expect(price, JSON.stringify(preview)).toBeGreaterThan(0);
    const kept = await placeOrder(allocation.skuCode, price, `shop-${Date.now()}-a`, false);
    const reference = `shop-${Date.now()}-b`;
    const refunded = await placeOrder(allocation.skuCode, price, reference, true);

    await signInFromInvite('owner', 'owner@demo.example');
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.getByRole('link', { name: reference }).waitFor();
    await opened.check('orders');
    await page.getByLabel('Order reference').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: reference }).click();
    await page.getByRole('heading', { name: `Order ${reference}` }).waitFor();
    for (const keyId of refunded.keyIds) await page.getByText(keyId).first().waitFor();
    await page.getByRole('cell', { name: 'order.fulfilled' }).first().waitFor();
    await page.getByText('deferred, not revealed yet').waitFor();
    const html = await page.content();
    for (const key of kept.keys ?? []) expect(html).not.toContain(key);
    await opened.check('order');

    await page.getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('heading', { name: 'Sales in USD' }).waitFor();
    const grossBefore = await statementCell(page, 'Refunded');
    await opened.check('finance-statements');

    await page.goBack();
    await page.getByRole('heading', { name: `Order ${reference}` }).waitFor();
    await page.getByRole('button', { name: 'Refund keys' }).click();
    await page.getByRole('dialog').getByLabel(refunded.keyIds[0]!).check();
    await page.getByLabel('Refund reference').fill(`rf-${reference}`);
    await opened.check('order-refund-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Refund keys' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'refund.completed' }).first().waitFor();
    await page.getByRole('cell', { name: 'Refund', exact: true }).waitFor();
    await page.getByText('Refunded 1 of 2').waitFor();
    await opened.check('order-refunded');

    await page.getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('heading', { name: 'Sales in USD' }).waitFor();
    await expect.poll(() => statementCell(page, 'Refunded')).not.toBe(grossBefore);
    const statement = await (await api('/finance/statements')).json();
    const usd = (statement.data as { currencyCode: string; refundedCents: number; period: string }[]).find(
      (l) => l.currencyCode === 'USD',
    )!;
    expect(usd.refundedCents).toBe(price);
    // The text as written, not as styled: the table's headers are shown in capitals.
    const chartTable = (await page.locator('figure table').first().textContent()) ?? '';
    const month = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(chartTable).toContain(month.format(new Date(`${usd.period}-01T00:00:00Z`)));
    expect(chartTable).toContain((price / 100).toFixed(2));
    await opened.check('finance-statements-after-refund');

    await page.getByRole('link', { name: 'API sales' }).click();
    await page.getByRole('cell', { name: 'sale_reversal' }).waitFor();
    await opened.check('finance-sales');
    await page.getByRole('link', { name: 'Invoices' }).click();
    await page.getByText('No closed month yet.').waitFor();
    await opened.check('finance-invoices');

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByLabel('Kinds').fill('sale,refund');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: 'refund', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Export these entries as CSV' }).click();
    const plain = page.getByRole('link', { name: /^Download CSV/ });
    await plain.waitFor({ timeout: 30_000 });
    await opened.check('finance-activity');
    const downloaded = async (link: typeof plain) => {
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      return readFileSync((await download.path())!);
    };
    const direct = await (await api('/activity?format=csv&kinds=sale,refund')).text();
    // The same bytes uncompressed and compressed.
    const csv = (await downloaded(plain)).toString('utf8');
    expect(csv).toBe(direct);
    const compressed = page.getByRole('link', { name: 'Download compressed (.csv.gz)' });
    expect(gunzipSync(await downloaded(compressed)).toString('utf8')).toBe(direct);
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1 + 3);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: /Sign in/ }).waitFor();
    expect(opened.foreign, opened.foreign.join('\n')).toEqual([]);
    expect(opened.errors, opened.errors.join('\n')).toEqual([]);
  }, 180_000);

  it('gives a finance user finance and no key creation', async () => {
    await signInFromInvite('finance', 'finance@demo.example');
    await page.getByRole('link', { name: 'Finance' }).waitFor();
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByRole('button', { name: /Create .* key/ }).count()).toBe(0);
    await opened.check('finance-user-keys');
    const refused = await page.evaluate(async () => {
      const session = await (await fetch('/console/api/session')).json();
      const response = await fetch('/console/api/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.data.csrfToken },
        body: JSON.stringify({
          name: 'not mine to make',
          scopes: ['seller:products:read'],
          allowedIps: ['8.8.8.8'],
        }),
      });
      return [response.status, (await response.json()).code];
    });
    expect(refused).toEqual([403, 'FORBIDDEN']);
    await page.getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('heading', { name: 'Sales in USD' }).waitFor();
    await opened.check('finance-user-finance');
  }, 120_000);
});

/** The newest month's figure in a column of the USD statement table. */
async function statementCell(page: Page, column: string) {
  const table = page.getByRole('table', { name: 'Statement lines in USD' });
  const headers = await table.locator('thead th').allTextContents();
  return table.locator('tbody tr').first().locator('td').nth(headers.indexOf(column)).textContent();
}
