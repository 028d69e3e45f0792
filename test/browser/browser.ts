import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { ENGINE } from '../harness.js';

/**
 * Debian's chromium (or CHROMIUM_PATH). The pages under test do not depend on the engine, so the
 * browser tests run once, in the SQLite run; outside CI a machine without chromium skips them,
 * under CI=true a missing browser fails.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS = process.env.CI_ARTIFACTS_DIR || 'artifacts';
export const BROWSER_SKIPPED = ENGINE === 'postgres' || (!existsSync(CHROMIUM) && process.env.CI !== 'true');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A headless chromium (playwright-core downloads none: it runs the one at CHROMIUM). */
function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** The two sizes every console page is laid out for: a laptop and a phone. */
export const VIEWPORTS = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** axe-core over the whole document: every violation, whatever its impact. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the evaluated script defines
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v: { id: string; nodes: { target: string[] }[] }) =>
        `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
    );
  });
}

/**
 * The page at both sizes: a full-page screenshot `console-<name>-<size>.png` each, no axe-core
 * violation of any impact, and nothing wider than the window (the page never scrolls sideways).
 * Ends at the wide size.
 */
export async function lookAtBothSizes(page: Page, name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    await page.screenshot({ path: join(ARTIFACTS, `console-${name}-${viewport.name}.png`), fullPage: true });
    expect(
      overflow,
      `${name} ${viewport.name}: the page is ${overflow}px wider than the window`,
    ).toBeLessThanOrEqual(0);
    const violations = await axeViolations(page);
    expect(violations, `${name} ${viewport.name}: ${violations.join('\n')}`).toEqual([]);
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** Page errors and console errors (CSP violations included). */
  errors: string[];
  /** Requests to anywhere but the service. */
  foreign: string[];
  /** Screenshot `console-<name>.png` into the artifacts, then axe-core: no serious or critical violation. */
  check(name: string): Promise<void>;
  /** On an invite page: set `password` and sign in, until the home page shows. */
  acceptInvite(password: string): Promise<void>;
  /** Switch the console to the production environment's data. */
  showProductionData(): Promise<void>;
  /** Follow a link of the console's navigation, opening its menu first where it is folded (a phone). */
  navigate(label: string): Promise<void>;
}

export interface ConsoleBrowserOptions {
  /** Accept downloads (the activity CSV). Default false. */
  downloads?: boolean;
  /**
   * A refused sign-in or call answers 401/403 on purpose: its console message is not an error.
   * Default true; false counts every console error.
   */
  refusalsExpected?: boolean;
  /** The window's size. Default 1400x900. */
  viewport?: { width: number; height: number };
}

/** A headless chromium page on the console at `base`, watching for errors and outside requests. */
export async function openConsoleBrowser(
  base: string,
  options: ConsoleBrowserOptions = {},
): Promise<ConsoleBrowser> {
  const refusalsExpected = options.refusalsExpected ?? true;
  const browser = await launchChromium();
  const page = await browser.newPage({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    acceptDownloads: options.downloads ?? false,
  });
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) foreign.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (refusalsExpected && /status of 40[13]/.test(message.text())) return;
    errors.push(`${message.text()} ${message.location().url}`);
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  async function check(name: string) {
    await page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage: true });
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe is a global the evaluated script defines
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
      return result.violations
        .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v: { id: string; nodes: { target: string[] }[] }) =>
            `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`,
        );
    });
    expect(violations, `${name}: ${violations.join('\n')}`).toEqual([]);
  }
  async function acceptInvite(password: string) {
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('Repeat the password').fill(password);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
  }
  async function showProductionData() {
    await page.getByText('Production', { exact: true }).click();
    await page.getByText('Live data').waitFor();
  }
  async function navigate(label: string) {
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label }).click();
  }
  return { browser, page, errors, foreign, check, acceptInvite, showProductionData, navigate };
}

export interface AppBrowser {
  browser: Browser;
  page: Page;
  /** Where the app listens. */
  base: string;
  /** Every URL the page requested. */
  requested: string[];
  /** Page errors and console errors, as the browser words them. */
  errors: string[];
}

/**
 * `app` listening on a free loopback port, and a headless chromium page for it that records
 * every request and every page or console error.
 */
export async function openAppBrowser(
  app: App,
  viewport: { width: number; height: number },
): Promise<AppBrowser> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { browser, page, base, requested, errors };
}
