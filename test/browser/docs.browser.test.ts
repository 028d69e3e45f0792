import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_ALIASES } from '../../src/modules/docs/docs-page.js';
import { makeSeller } from '../factories.js';
import { useTestApp } from '../harness.js';
import { call } from '../route-contract.js';
import { type AppBrowser, ARTIFACTS, BROWSER_SKIPPED, openAppBrowser } from './browser.js';

/**
 * /docs in a real headless Chromium (Debian's `chromium`, which .ci/run installs when missing;
 * CHROMIUM_PATH overrides). The page does not depend on the engine: it runs in the SQLite run.
 * Outside CI a machine without Chromium skips it; under CI=true a missing browser fails.
 */

describe.skipIf(BROWSER_SKIPPED)('the API reference at /docs in a browser', () => {
  const t = useTestApp();
  let opened: AppBrowser;
  let base: string;
  let page: Page;

  beforeAll(async () => {
    opened = await openAppBrowser(t.app, { width: 1400, height: 900 });
    ({ base, page } = opened);
  });
  afterAll(async () => {
    await opened?.browser.close();
  });

  it('renders the createOrder operation from the served document, loading nothing from elsewhere', async () => {
    const doc = (await (await fetch(`${base}/api/seller/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operationId = doc.paths['/api/seller/v1/orders']?.post?.operationId;
    await page.goto(`${base}/docs`);
    // Redoc's anchor of an operation: by operationId once the document names one (createOrder).
    const operation = page.locator(
      operationId ? `[id$="operation/${operationId}"]` : '[id$="paths/~1api~1seller~1v1~1orders/post"]',
    );
    await operation.first().waitFor({ timeout: 20_000 });
    if (operationId) expect(operationId).toBe('createOrder');
    await operation.first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    expect(await operation.first().textContent()).toContain('/api/seller/v1/orders');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs-create-order.png') });
    const foreign = opened.requested.filter((url) => !url.startsWith(base) && !/^(data|blob):/.test(url));
    expect(foreign, foreign.join('\n')).toEqual([]);
    expect(opened.errors, opened.errors.join('\n')).toEqual([]);
  });

  it('lands on the NO_AVAILABLE_KEYS row that doc_url points at, beside the guides', async () => {
    await page.goto(`${base}/docs#error-NO_AVAILABLE_KEYS`);
    const row = page.locator('[id="error-NO_AVAILABLE_KEYS"]');
    await row.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => row.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 10_000 })
      .toBeLessThan(900);
    expect(await row.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(-1);
    expect(await row.textContent()).toContain('409');
    for (const guide of [
      'Authentication and scopes',
      'Idempotency',
      'Rate limits',
      'Sandbox',
      'Webhooks and signatures',
    ]) {
      expect(await page.locator('[role="menuitem"], li, label', { hasText: guide }).count()).toBeGreaterThan(
        0,
      );
    }
    await page.screenshot({ path: join(ARTIFACTS, 'docs-error-anchor.png') });
  });

  /** The element a hash names, scrolled into view: its top as the browser shows it, or null. */
  const landOn = async (hash: string) => {
    await page.goto(`${base}/docs#${hash}`);
    await page.locator('[id^="section/"]').first().waitFor({ timeout: 20_000 });
    // The reference UI rewrites the address to the section being read as it scrolls: the
    // target is the one asked for (or the section an old alias names).
    const id = ANCHOR_ALIASES[hash] ?? decodeURIComponent(hash);
    const target = page.locator(`[id="${id}"]`).first();
    if ((await target.count()) === 0) return { id, top: null };
    await expect
      .poll(() => target.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 10_000 })
      .toBeLessThan(450);
    return { id, top: await target.evaluate((el) => el.getBoundingClientRect().top) };
  };

  it('titles the page without a version suffix, and starts the Quick start at this address', async () => {
    await page.goto(`${base}/docs`);
    const title = page.locator('h1').first();
    await title.waitFor({ timeout: 20_000 });
    expect((await title.textContent())?.trim()).toBe('Seller Distribution API');
    const quick = page.locator('[id="section/Quick-start"]');
    const text = (await quick.textContent()) ?? '';
    expect(text).toContain(`export SDAPI=${base} KEY=service_sk_sbx_`);
    expect(text).not.toContain('8080');
    expect(text).toContain('/api/seller/v1/orders');
    expect(text).toContain('/api/seller/v1/webhooks');
    await quick.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs-quick-start.png') });
  });

  it('finds the target of every in-page link of /docs', async () => {
    await page.goto(`${base}/docs`);
    await page.locator('[id^="section/"]').first().waitFor({ timeout: 20_000 });
    const hashes = await page.$$eval('a[href^="#"]', (links) => [
      ...new Set(
        links.map((a) => decodeURIComponent((a.getAttribute('href') ?? '#').slice(1))).filter(Boolean),
      ),
    ]);
    expect(hashes.length).toBeGreaterThan(100);
    const missing = await page.evaluate((ids) => ids.filter((id) => !document.getElementById(id)), hashes);
    expect(missing).toEqual([]);
  });

  it('finds the target of every anchor the service emits: doc_url of every code, docsUrl, sandboxNotes', async () => {
    const codes = Object.keys((await import('../../src/http/errors.js')).ERROR_CODES);
    await page.goto(`${base}/docs`);
    await page.locator('[id^="section/"]').first().waitFor({ timeout: 20_000 });
    const missing = await page.evaluate(
      (ids) => ids.filter((id) => !document.getElementById(id)),
      codes.map((code) => `error-${code}`),
    );
    expect(missing).toEqual([]);

    const sandbox = await makeSeller(t);
    const me = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: sandbox.auth });
    const live = await makeSeller(t, { environment: 'production' });
    const refused = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/whoami',
      headers: { ...live.auth, 'x-forwarded-for': '9.9.9.9' },
    });
    const emitted = [
      me.body.data.sandboxNotes.docUrl as string,
      refused.body.details.docsUrl as string,
      refused.body.doc_url as string,
      `${base}/docs#ip-allowlist`,
      `${base}/docs#sandbox`,
    ];
    for (const url of emitted) {
      const landed = await landOn(new URL(url).hash.slice(1));
      expect(landed.top, `${url} lands on ${landed.id}`).not.toBeNull();
      expect(landed.top, `${url} lands on ${landed.id}`).toBeGreaterThanOrEqual(-2);
    }
    const sandboxTable = page.locator('[id="section/Sandbox"] table').first();
    expect(await sandboxTable.textContent()).toContain('SANDBOX-HOTDROP-LIMITED-001');
    await sandboxTable.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(ARTIFACTS, 'docs-sandbox-table.png') });
  });

  it('highlights the error row a doc_url reaches, inside a table that fits its column', async () => {
    await landOn('error-TAX_DECLARATION_REQUIRED');
    const row = page.locator('[id="error-TAX_DECLARATION_REQUIRED"]');
    expect(await row.getAttribute('class')).toContain('reached');
    expect(
      await row
        .locator('td')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(255, 248, 197)');
    const fits = await page.$eval('table.error-codes', (table) => {
      const column = table.parentElement as HTMLElement;
      const cells = [...table.querySelectorAll('td')].filter((td) => td.scrollWidth > td.clientWidth + 1);
      return { overflow: table.scrollWidth - column.clientWidth, cells: cells.map((td) => td.textContent) };
    });
    expect(fits).toEqual({ overflow: expect.any(Number), cells: [] });
    expect(fits.overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-error-row-from-doc-url.png') });
  });

  it('wraps the webhook signature sample instead of scrolling it sideways', async () => {
    await page.goto(`${base}/docs`);
    const sample = page.locator('pre', { hasText: 'function verify' }).first();
    await sample.waitFor({ timeout: 20_000 });
    expect(await sample.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  });
});
