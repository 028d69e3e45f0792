import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompiledServer, freePort, startCompiledServer } from '../compiled-server.js';
import { ARTIFACTS, BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';
import { operatorApi, operatorCli, sandboxOrder, sellerApi } from './console-journey.js';

/**
 * The figures and the footprint as a new seller meets them, in Debian's chromium on the
 * compiled server: the Allocations and Stock pages name the same three figures as GET
 * /availability (an allocated SKU without keys shows 0 sellable, as its order's 409 says);
 * the footprint editor takes codes in any case and names a bad code next to its field once;
 * the Settings sentence says what an order then does, before and after a footprint is declared.
 * Each page is screenshotted at 1280x800 and 390x844 and axe-core finds no violation at all.
 */
const PASSWORD = 'a long console passphrase';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const NONE_DECLARED =
  'Production orders are refused until you declare a footprint. Sandbox orders are not checked while no footprint is declared: they go through for any country and currency.';
const DECLARED =
  'Sandbox and production orders for a country or currency outside this footprint are refused.';

describe.skipIf(BROWSER_SKIPPED)('console figures and footprint in a browser', () => {
  let server: CompiledServer;
  let base: string;
  let opened: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    [server, opened] = await Promise.all([
      startCompiledServer({ PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'warn' }),
      // Nothing here is refused on purpose: every console error counts.
      openConsoleBrowser(base, { refusalsExpected: false }),
    ]);
    page = opened.page;
  }, 120_000);
  afterAll(async () => {
    await opened?.browser.close();
    if (server) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  /** Both sizes: a full-page screenshot each, and no axe-core violation of any impact. */
  async function look(name: string) {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.screenshot({
        path: join(ARTIFACTS, `console-${name}-${viewport.name}.png`),
        fullPage: true,
      });
      await page.evaluate(AXE);
      const violations = await page.evaluate(async () => {
        // biome-ignore lint/suspicious/noExplicitAny: axe is a global the evaluated script defines
        const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map(
          (v: { id: string; nodes: { target: string[] }[] }) =>
            `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
        );
      });
      expect(violations, `${name} ${viewport.name}: ${violations.join('\n')}`).toEqual([]);
    }
    await page.setViewportSize(VIEWPORTS[0]);
  }

  const footprintSentence = () => page.locator('#footprint > p').first().textContent() as Promise<string>;
  const cellOf = (row: ReturnType<Page['locator']>, column: number) => row.locator('td').nth(column);

  it('shows the figures of GET /availability, and a footprint sentence that matches the orders', async () => {
    const company = await operatorApi(server, 'POST', '/companies', { name: 'Figure Games', country: 'US' });
    const email = 'owner@figures.example';
    const invite = await operatorCli(
      server,
      base,
      ...['users', 'invite', '--company', company.data.id, '--email', email, '--role', 'owner'],
    );
    const key = await operatorApi(server, 'POST', `/companies/${company.data.id}/keys`, {
      environment: 'sandbox',
    });
    const api = sellerApi(base, key.data.key);
    await page.goto(invite.link);
    await opened.acceptInvite(PASSWORD);

    // Home's "Declare where you sell" opens the editor, the cursor in its first field.
    await page.getByText('1 live sandbox key.').waitFor();
    const declare = page.locator('li', { hasText: 'Declare where you sell' });
    await declare.getByRole('link', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'Footprint' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#footprint');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('footprint-countries');

    // None declared: the page says sandbox orders go through, and one does.
    expect(await footprintSentence()).toBe(`The countries and currencies you sell in. ${NONE_DECLARED}`);
    expect((await api('POST', '/orders', sandboxOrder())).status).toBe(200);

    // Bad codes: one sentence each, next to its field, once on the page.
    await page.getByLabel('Countries you sell in').fill('XX, de');
    await page.getByLabel('Currencies you sell in').fill('abc');
    await page.getByRole('button', { name: 'Save footprint' }).click();
    const countryError = page.getByText('XX is not a two-letter country code, such as DE or US.');
    await countryError.waitFor();
    expect(await countryError.count()).toBe(1);
    expect(await page.getByText('abc is not a three-letter currency code, such as EUR or USD.').count()).toBe(
      1,
    );
    expect(await page.getByLabel('Countries you sell in').getAttribute('aria-invalid')).toBe('true');
    // The notice above only says the form has problems; each is said beside its field.
    expect(await page.getByRole('alert').textContent()).toBe(
      'Some fields need a change; each says what beside it.',
    );
    await look('settings-refused');

    // Lower case is taken and kept upper case; now the page says orders outside are refused, and they are.
    await page.getByLabel('Countries you sell in').fill('de, fr');
    await page.getByLabel('Currencies you sell in').fill('eur');
    await page.getByRole('button', { name: 'Save footprint' }).click();
    await page.getByText('Footprint saved.').waitFor();
    expect(await page.getByLabel('Countries you sell in').inputValue()).toBe('DE, FR');
    await page.getByText(/^Last changed .+ \((now|\d+ seconds? ago)\)\.$/).waitFor();
    await expect.poll(footprintSentence).toBe(`The countries and currencies you sell in. ${DECLARED}`);
    const outside = await api('POST', '/orders', sandboxOrder());
    expect(outside.status).toBe(422);
    expect((await outside.json()).code).toBe('FOOTPRINT_COUNTRY_NOT_DECLARED');
    await look('settings');

    // Allocations: the SKU without keys shows its allocation, 0 in stock, 0 sellable now.
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page
      .getByRole('navigation', { name: 'Catalog' })
      .getByRole('link', { name: 'Allocations' })
      .click();
    const noKeys = page.locator('tr', { hasText: 'SANDBOX-NOKEYS-001' });
    await noKeys.waitFor();
    const { data: availability } = (await (
      await api('GET', '/availability?skuCode=SANDBOX-NOKEYS-001')
    ).json()) as { data: { allocationRemaining: number; inventoryAvailable: number; available: number } };
    const number = (value: number) => value.toLocaleString('en-US');
    expect(availability).toMatchObject({ inventoryAvailable: 0, available: 0 });
    expect(await cellOf(noKeys, 1).textContent()).toContain(number(availability.allocationRemaining));
    expect(await cellOf(noKeys, 2).textContent()).toBe('0');
    expect(await cellOf(noKeys, 3).textContent()).toBe('0');
    expect(await cellOf(noKeys, 4).textContent()).toBe(
      'Not nowNo keys in stock: the publisher has to add keys.',
    );
    const finite = page.locator('tr', { hasText: 'SANDBOX-STD-001' });
    expect(await cellOf(finite, 2).textContent()).toBe('25');
    expect(await cellOf(finite, 3).textContent()).toBe('25');
    expect(await cellOf(finite, 4).textContent()).toBe('Yes');
    expect(await page.getByText('1000000').count()).toBe(0);
    await look('allocations');

    // Its Stock page: the same three figures, in the same words.
    await noKeys.getByRole('link', { name: 'SANDBOX-NOKEYS-001' }).click();
    await page.getByRole('heading', { name: 'Stock of SANDBOX-NOKEYS-001' }).waitFor();
    expect(await page.locator('dl.facts dt').allTextContents()).toEqual([
      'Allocation left',
      'Keys in stock',
      'Sellable now',
    ]);
    expect(await page.locator('dl.facts dd').allTextContents()).toEqual([
      `${number(availability.allocationRemaining)} keys`,
      '0 keys',
      '0 keys',
    ]);
    await page.getByText('No keys in stock: the publisher has to add keys.').waitFor();
    await look('stock');

    // The refused save above is the only error the browser logs.
    const unexpected = opened.errors.filter((e) => !/status of 422 .*\/console\/api\/footprint$/.test(e));
    expect(unexpected, unexpected.join('\n')).toEqual([]);
    expect(opened.errors.length).toBe(1);
    expect(opened.foreign).toEqual([]);
  }, 240_000);
});
