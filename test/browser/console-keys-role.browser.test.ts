import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompiledServer, startCompiledServer } from '../compiled-server.js';
import { BROWSER_SKIPPED, type ConsoleBrowser, openConsoleBrowser } from './browser.js';
import { operatorApi, operatorCli } from './console-journey.js';

/**
 * The Keys page as a developer, in Debian's chromium on the compiled server: the create dialog
 * offers only the scopes a developer may hand a key, and a key holding finance is not offered
 * for rotation or roll (either would be refused), while the developer's own keys are.
 */
const PASSWORD = 'a long console passphrase';

describe.skipIf(BROWSER_SKIPPED)("the Keys page offers only the role's scopes", () => {
  let server: CompiledServer;
  let opened: ConsoleBrowser;
  let page: Page;

  beforeAll(async () => {
    server = await startCompiledServer();
    opened = await openConsoleBrowser(server.seller, { refusalsExpected: false });
    page = opened.page;
  }, 120_000);
  afterAll(async () => {
    await opened?.browser.close();
    server?.process.kill();
  });

  it("a developer sees no finance or footprint scope and no rotate or roll on an owner's finance key", async () => {
    const company = await operatorApi(server, 'POST', '/companies', { name: 'Role Games', country: 'US' });
    const companyId = company.data.id as string;
    await operatorApi(server, 'POST', `/companies/${companyId}/keys`, {
      environment: 'sandbox',
      name: 'Accounting export',
      scopes: ['seller:finance:read'],
    });
    await operatorApi(server, 'POST', `/companies/${companyId}/keys`, {
      environment: 'sandbox',
      name: 'Storefront',
      scopes: ['seller:products:read', 'seller:keys:pull'],
    });
    const invite = await operatorCli(
      server,
      server.seller,
      ...['users', 'invite', '--company', companyId, '--email', 'dev@roles.example', '--role', 'developer'],
    );
    await page.goto(invite.link);
    await page.getByText('You are invited as').waitFor();
    await opened.acceptInvite(PASSWORD);
    await page.getByRole('link', { name: 'API keys' }).click();

    const finance = page.getByRole('row', { name: /Accounting export/ });
    const storefront = page.getByRole('row', { name: /Storefront/ });
    await storefront.getByRole('button', { name: 'Rotate' }).waitFor();
    expect(await finance.getByRole('button', { name: 'Rotate' }).count()).toBe(0);
    expect(await finance.getByRole('button', { name: 'Roll' }).count()).toBe(0);
    await finance.getByText('Rotate or roll: owners only').waitFor();
    expect(await finance.getByRole('button', { name: 'Revoke' }).count()).toBe(1);
    await opened.check('keys-developer');

    await page.getByRole('button', { name: 'Create sandbox key' }).click();
    const scopes = page.getByRole('group', { name: 'Scopes' });
    await scopes.getByText('seller:keys:write').waitFor();
    expect(await scopes.getByText('seller:finance:read').count()).toBe(0);
    expect(await scopes.getByText('seller:account:manage').count()).toBe(0);
    await opened.check('keys-developer-create');
    expect(opened.errors).toEqual([]);
    expect(opened.foreign).toEqual([]);
  });
});
