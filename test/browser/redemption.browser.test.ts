import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/http/auth/scopes.js';
import { admin } from '../admin.js';
import { alwaysOrder, post } from '../checkout.js';
import { makeSeller } from '../factories.js';
import { useTestApp } from '../harness.js';
import { type AppBrowser, ARTIFACTS, BROWSER_SKIPPED, openAppBrowser } from './browser.js';

/**
 * The hosted redemption page of keyless keys in a real headless Chromium (Debian's `chromium`;
 * CHROMIUM_PATH overrides), as a buyer meets it: open the link, read the instructions, reveal
 * the key; and the pages of a withdrawn and an unknown link. Screenshots go to CI_ARTIFACTS_DIR.
 * Like /docs, the page does not depend on the engine: it runs in the SQLite run.
 */

/** Relative luminance contrast of two `rgb(...)` colours (WCAG 2.x). */
function contrast(foreground: string, background: string): number {
  const channels = (rgb: string) => (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  const luminance = (rgb: string) => {
    const [r, g, b] = channels(rgb).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The checks a page of this kind must pass to be usable with a screen reader and a keyboard. */
async function expectAccessible(page: Page) {
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  expect((await page.title()).length).toBeGreaterThan(0);
  expect(await page.locator('main').count()).toBe(1);
  expect(await page.locator('h1').count()).toBe(1);
  const pairs = await page.$$eval('h1, h2, p, li, button, code, footer', (elements) =>
    elements.map((el) => {
      const style = getComputedStyle(el);
      let bg = 'rgba(0, 0, 0, 0)';
      for (
        let node: Element | null = el;
        node && /rgba\(0, 0, 0, 0\)|transparent/.test(bg);
        node = node.parentElement
      ) {
        bg = getComputedStyle(node).backgroundColor;
      }
      return { text: el.textContent?.slice(0, 30) ?? '', color: style.color, bg };
    }),
  );
  for (const pair of pairs) {
    expect(contrast(pair.color, pair.bg), `${pair.text}: ${pair.color} on ${pair.bg}`).toBeGreaterThanOrEqual(
      4.5,
    );
  }
}

describe.skipIf(BROWSER_SKIPPED)('the hosted redemption page in a browser', () => {
  const t = useTestApp();
  let opened: AppBrowser;
  let base: string;
  let page: Page;

  beforeAll(async () => {
    opened = await openAppBrowser(t.app, { width: 1000, height: 900 });
    ({ base, page } = opened);
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await opened?.browser.close();
  });

  it('shows the product and instructions, then reveals the key when the buyer asks', async () => {
    const seller = await makeSeller(t, { scopes: [...SCOPES] });
    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { keylessEnabled: true });
    const ordered = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-KEYLESS-001' }));
    expect(ordered.status).toBe(200);
    const path = new URL(ordered.body.data.redemption.url).pathname;
    const [stored] = await t.ctx.db
      .selectFrom('game_keys')
      .select('ciphertext')
      .where('order_id', '=', ordered.body.data.orderId)
      .execute();
    const key = t.ctx.secrets!.open(stored!.ciphertext);

    await page.goto(`${base}${path}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sandbox Keyless');
    expect(await page.locator('body').textContent()).not.toContain(key);
    expect(await page.getByText('Platform: Steam').count()).toBe(1);
    await expectAccessible(page);
    await page.screenshot({ path: join(ARTIFACTS, 'redemption-before-reveal.png'), fullPage: true });

    // Keyboard only: the reveal button is reachable and works with Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reveal my key');
    await Promise.all([page.waitForURL(`${base}${path}/reveal`), page.keyboard.press('Enter')]);
    await expect.poll(() => page.locator('code.key').textContent()).toBe(key);
    await expectAccessible(page);
    await page.screenshot({ path: join(ARTIFACTS, 'redemption-revealed.png'), fullPage: true });

    await post(t, seller, `/orders/${ordered.body.data.orderReference}/redemption/revoke`, {});
    const withdrawn = await page.goto(`${base}${path}`);
    expect(withdrawn?.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('This link was withdrawn');
    expect(await page.locator('body').textContent()).not.toContain(key);
    await expectAccessible(page);
    await page.screenshot({ path: join(ARTIFACTS, 'redemption-withdrawn.png'), fullPage: true });

    const unknown = await page.goto(`${base}/redeem/${'x'.repeat(43)}`);
    expect(unknown?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This link is not valid');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, 'redemption-unknown-mobile.png'), fullPage: true });

    const foreign = opened.requested.filter((url) => !url.startsWith(base));
    expect(foreign, foreign.join('\n')).toEqual([]);
    // The withdrawn and unknown links answer 410 and 404 on purpose; anything else (a CSP
    // violation, a script error) is a failure.
    const unexpected = opened.errors.filter((e) => !/status of (404|410)\b/.test(e));
    expect(unexpected, unexpected.join('\n')).toEqual([]);
  });
});
