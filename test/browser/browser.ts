import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { ENGINE } from '../harness.js';

/** Debian's chromium (or CHROMIUM_PATH); the console's browser tests run once, in the SQLite run. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS = process.env.CI_ARTIFACTS_DIR || 'artifacts';
export const BROWSER_SKIPPED = ENGINE === 'postgres' || (!existsSync(CHROMIUM) && process.env.CI !== 'true');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ConsoleBrowser {
  browser: Browser;
  page: Page;
  /** Page errors and console errors (CSP violations included). */
  errors: string[];
  /** Requests to anywhere but the service. */
  foreign: string[];
  /** Screenshot `console-<prefix><name>.png` into the artifacts, then axe-core: no serious or critical violation. */
  check(name: string): Promise<void>;
}

/** A headless chromium page on the console at `base`, watching for errors and outside requests. */
export async function openConsoleBrowser(
  base: string,
  options: { downloads?: boolean } = {},
): Promise<ConsoleBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage({
    viewport: { width: 1400, height: 900 },
    acceptDownloads: options.downloads ?? false,
  });
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) foreign.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A refused sign-in or call answers 401/403 on purpose; everything else, CSP violations included, is an error.
    if (message.type() === 'error' && !/status of 40[13]/.test(message.text()))
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
  return { browser, page, errors, foreign, check };
}
