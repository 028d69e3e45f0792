import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, useTestApp } from '../harness.js';

/**
 * /docs in a real headless Chromium (Debian's `chromium`, which .ci/run installs when missing;
 * CHROMIUM_PATH overrides). The page does not depend on the engine: it runs in the SQLite run.
 * Outside CI a machine without Chromium skips it; under CI=true a missing browser fails.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARTIFACTS = process.env.CI_ARTIFACTS_DIR || 'artifacts';
const skipped = ENGINE === 'postgres' || (!existsSync(CHROMIUM) && process.env.CI !== 'true');

describe.skipIf(skipped)('the API reference at /docs in a browser', () => {
  const t = useTestApp();
  let browser: Browser;
  let base: string;
  let page: Page;
  const requested: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
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
    const foreign = requested.filter((url) => !url.startsWith(base) && !/^(data|blob):/.test(url));
    expect(foreign, foreign.join('\n')).toEqual([]);
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it('lands on the NO_AVAILABLE_KEYS row that doc_url points at, beside the guides', async () => {
    await page.goto(`${base}/docs#error-NO_AVAILABLE_KEYS`);
    const row = page.locator('[id="error-NO_AVAILABLE_KEYS"]');
    await row.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => row.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 10_000 })
      .toBeLessThan(900);
    expect(await row.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
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
});
