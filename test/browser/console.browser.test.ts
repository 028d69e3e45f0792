import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../../src/modules/console/totp.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/modules/webhooks/retry-schedule.js';
import { type CompiledServer, freePort, startCompiledServer } from '../compiled-server.js';
import { startReceiver } from '../webhook-receiver.js';
import {
  BROWSER_SKIPPED,
  type ConsoleBrowser,
  lookAtBothSizes,
  openConsoleBrowser,
  VIEWPORTS,
} from './browser.js';
import {
  advanceServiceClock,
  operatorApi,
  operatorCli,
  sandboxOrder,
  sellerApi,
  until,
} from './console-journey.js';

/**
 * The seller console's journeys in Debian's chromium (as the /docs test) on a running compiled
 * server (`node dist/server.js`, embedded SQLite, SDAPI_TEST_CLOCK=1): the operator CLI invites
 * the first owner; the browser sets a password, signs in, creates a sandbox key; the test places
 * an order and a refused one with that key and the browser finds both requests by requestId;
 * a webhook endpoint on a local receiver gets deliveries from the server's own worker, one
 * fails and is resent, one event fails until its retries run out (the operator's test clock
 * moves through the retry schedule) and is replayed, ten failures trip the breaker; then the
 * team, two-factor sign-in, the audit log and sign-out, at 1280x800. A screenshot of every page
 * goes to the CI artifacts and axe-core checks each one for serious or critical violations; the
 * Webhooks page (its log, a failed delivery, an event, a paused endpoint) is also looked at
 * 390x844, with no axe-core violation of any impact and no sideways scroll at either size.
 *
 * Timing: on SQLite the server's delivery job looks for due deliveries every 20 ms, so a first
 * attempt follows an event at once; the retry schedule (5 s, 5 min, ... 24 h) has no test
 * setting, so the retries are reached by moving the service clock (POST /admin/v1/clock), each
 * step just past the longest jittered wait. No database row is written by the test itself.
 */
const PASSWORD = 'a long console passphrase';
const EMAIL = 'owner@seller.example';

describe.skipIf(BROWSER_SKIPPED)('the seller console in a browser, on the compiled server', () => {
  let server: CompiledServer;
  let base: string;
  let opened: ConsoleBrowser;
  let page: Page;
  /** What the receiver refuses: everything, or the order.* events of one order reference. */
  const failing = { all: false, orderReference: null as string | null };
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
        SDAPI_TEST_CLOCK: '1',
      }),
      startReceiver((res, got) => {
        const poisoned =
          failing.orderReference !== null && got.json.data.orderReference === failing.orderReference;
        res.writeHead(failing.all || poisoned ? 500 : 204).end();
      }),
      // A refused sign-in and an expired session answer 401 on purpose (refusalsExpected).
      openConsoleBrowser(base, { viewport: VIEWPORTS[0] }),
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

  const check = (name: string) => opened.check(name);
  const received = (orderReference: string) =>
    receiver.received.filter((r) => r.json.data.orderReference === orderReference);
  const deliveryRows = () =>
    page.locator('#deliveries-title').locator('xpath=ancestor::section').locator('tbody tr');
  const eventPanel = () => page.getByTestId('event-panel');

  async function signIn(code?: () => string) {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    if (code) {
      await page.getByLabel('Authenticator code').waitFor();
      await check('sign-in-code');
      await page.getByLabel('Authenticator code').fill(code());
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
  }

  it('walks invite, sign-in, keys, orders in the request log, webhooks, two-factor sign-in and sign-out', async () => {
    // The operator: a seller company (operator API), its first owner's invite (the CLI beside the server).
    const company = await operatorApi(server, 'POST', '/companies', { name: 'Journey Games', country: 'US' });
    const invite = await operatorCli(
      server,
      base,
      ...['users', 'invite', '--company', company.data.id, '--email', EMAIL, '--role', 'owner'],
    );
    expect(invite.link).toMatch(new RegExp(`^${base}/console/invite#`));
    await page.goto(invite.link);
    await page.getByText('You are invited as').waitFor();
    await check('invite');
    await opened.acceptInvite(PASSWORD);
    await page.getByText('Create a sandbox key').waitFor();
    await check('home');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await check('sign-in');
    await signIn();

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create sandbox key' }).click();
    await page.getByLabel('Name').fill('Web shop');
    await page.getByLabel('Allowed IPs').fill('127.0.0.1');
    await page.getByText('127.0.0.1 is in the loopback 127.0.0.0/8 range').waitFor();
    await check('key-allowlist-refused');
    await page.getByLabel('Allowed IPs').fill('');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(secret).toMatch(/^service_sk_sbx_/);
    await check('key-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('cell', { name: 'Web shop' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await check('keys');

    // The integration, with the key the browser created: an order, and one the pool refuses.
    const api = sellerApi(base, secret);
    const firstOrder = sandboxOrder();
    const placed = await api('POST', '/orders', firstOrder);
    expect(placed.status).toBe(200);
    expect(await placed.json()).toMatchObject({ data: { type: 'fulfilled', quantity: 1 } });
    const orderRequestId = placed.headers.get('x-request-id') ?? '';
    expect(orderRequestId).toMatch(/^req_/);
    const refused = await api('POST', '/orders', sandboxOrder('SANDBOX-NOKEYS-001'));
    expect(refused.status).toBe(409);
    const refusal = (await refused.json()) as { code: string; requestId: string };

    await page.getByRole('link', { name: 'Request log' }).click();
    await page.getByLabel('Request id').fill(orderRequestId);
    await page.getByRole('button', { name: 'Search' }).click();
    const orderRow = page.getByRole('row').filter({ hasText: orderRequestId });
    await orderRow.waitFor();
    expect(await orderRow.textContent()).toMatch(/200POST \/api\/seller\/v1\/orders/);
    await page.getByLabel('Request id').fill(refusal.requestId);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row').filter({ hasText: refusal.requestId }).waitFor();
    await check('request-log');
    await page.getByRole('row').filter({ hasText: refusal.requestId }).getByRole('link').click();
    // The address also names the environment (`?env=`).
    await page.waitForURL((url) => url.pathname.endsWith(`/console/logs/${refusal.requestId}`));
    await page.getByTestId('error-body').getByText(`"${refusal.code}"`).waitFor();
    await page.getByRole('link', { name: `Documentation of ${refusal.code}` }).waitFor();
    await check('request-detail');

    // Webhooks, delivered by the server's own worker to the local receiver.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No sandbox endpoints yet').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'order.fulfilled' }).check();
    await page.getByRole('checkbox', { name: 'order.failed' }).check();
    await page.getByLabel('Example payload').selectOption('order.fulfilled');
    await page.getByTestId('example-payload').getByText('"orderReference"').waitFor();
    await check('webhook-new');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByRole('dialog').getByLabel('Event type').selectOption('order.fulfilled');
    await page.getByTestId('test-payload').getByText('"orderReference"').waitFor();
    await check('webhook-test-dialog');
    await page.getByRole('dialog').getByLabel('Event type').selectOption('test.ping');
    await page.getByRole('dialog').getByRole('button', { name: 'Send test' }).click();
    await page.getByText('A test.ping event is on its way').waitFor();
    await until('the first test ping', () => receiver.received.length === 1);
    await deliveryRows().locator('.pill-done').first().waitFor();

    failing.all = true;
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send test' }).click();
    await until('the failing test ping', () => receiver.received.length === 2);
    const failedEvent = receiver.received[1]!.json.eventId;
    const failedRows = deliveryRows().filter({ hasText: failedEvent });
    await failedRows.locator('.pill-error').first().waitFor();
    await lookAtBothSizes(page, 'webhook-failed');

    failing.all = false;
    await failedRows.first().getByRole('button', { name: 'Resend' }).click();
    await page.getByText(`Event ${failedEvent} queued again`).waitFor();
    await until(
      'the resent ping',
      () => receiver.received.filter((r) => r.json.eventId === failedEvent).length >= 2,
    );
    await failedRows.first().getByRole('button', { name: failedEvent, exact: true }).click();
    await eventPanel().locator('.pill-error').first().waitFor();
    await eventPanel().getByText('succeeded').first().waitFor();
    expect(await eventPanel().getByTestId('event-envelope').textContent()).toContain(failedEvent);
    await lookAtBothSizes(page, 'webhook-event');
    await eventPanel().getByRole('button', { name: 'Close' }).click();

    // Two-factor sign-in, set up from the secret the account page shows.
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const totp = (await page.getByTestId('totp-secret').textContent()) ?? '';
    await page.getByLabel('Code from the app').fill(currentTotp(totp, Date.now()));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Sign-in asks for a code').waitFor();
    await check('account');

    // An order whose event the receiver keeps refusing, while it accepts the others: the
    // operator's test clock moves through the retry schedule until no attempt is left. One
    // accepted delivery on the way restarts the endpoint's run of failures, as real traffic
    // would, so the breaker (10 in a row) stays closed and the delivery ends `failed`.
    const poison = sandboxOrder();
    failing.orderReference = poison.orderReference;
    expect((await api('POST', '/orders', poison)).status).toBe(200);
    await until('the first attempt of the refused event', () => received(poison.orderReference).length === 1);
    const poisonEvent = received(poison.orderReference)[0]!.json.eventId;
    let clockOffset = 0;
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      if (i === 5) {
        const accepted = sandboxOrder();
        expect((await api('POST', '/orders', accepted)).status).toBe(200);
        await until('an accepted order event', () => received(accepted.orderReference).length === 1);
      }
      clockOffset = await advanceServiceClock(server, Math.ceil((delay * 1.1) / 1000) + 1);
      await until(`attempt ${i + 2}`, () => received(poison.orderReference).length === i + 2);
    }
    expect(received(poison.orderReference)).toHaveLength(MAX_ATTEMPTS);
    failing.orderReference = null;

    // Days passed on the service clock: the session has expired; sign in again, with a code.
    await page.reload();
    await signIn(() => currentTotp(totp, Date.now() + clockOffset));

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Event id').fill(poisonEvent);
    await page.getByRole('button', { name: 'Show its deliveries' }).click();
    await eventPanel().getByText('failed').first().waitFor();
    expect(await eventPanel().locator('tbody tr').count()).toBe(MAX_ATTEMPTS);
    await check('webhook-event-failed');

    await page.getByRole('button', { name: 'Deliveries', exact: true }).click();
    await page.getByLabel('Replay failed and undelivered events since').fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'Replay…' }).click();
    // The refused order's event; never the first order's, published before the endpoint existed.
    await page.getByRole('dialog').getByText('Replay 1 event?').waitFor();
    await check('webhook-replay-count');
    await page.getByRole('dialog').getByRole('button', { name: 'Replay 1 event' }).click();
    await page.getByText('1 event queued again').waitFor();
    await until('the replayed event', () => received(poison.orderReference).length === MAX_ATTEMPTS + 1);
    expect(received(firstOrder.orderReference)).toHaveLength(0);
    // The log filtered to failed order.fulfilled attempts: the refused order's, with the answer.
    await page.getByRole('combobox', { name: 'Result', exact: true }).selectOption('failed');
    await page.getByRole('combobox', { name: 'Event type', exact: true }).selectOption('order.fulfilled');
    await deliveryRows().first().locator('.pill-error').waitFor();
    expect(await deliveryRows().locator('.pill-done').count()).toBe(0);
    await check('webhook-log-filtered');
    await page.getByRole('combobox', { name: 'Result', exact: true }).selectOption('');
    await page.getByRole('combobox', { name: 'Event type', exact: true }).selectOption('');
    await eventPanel().locator('.pill-done').first().waitFor({ timeout: 10_000 });
    await lookAtBothSizes(page, 'webhooks');

    // Ten failed test sends do not trip the breaker; ten failed real events do: every page shows
    // the notice until it is enabled.
    failing.all = true;
    const endpointId = ((await (await api('GET', '/webhooks')).json()) as { data: { id: string }[] }).data[0]!
      .id;
    let before = receiver.received.length;
    for (let i = 0; i < 10; i++) expect((await api('POST', `/webhooks/${endpointId}/test`)).status).toBe(202);
    await until('ten failed pings', () => receiver.received.length >= before + 10);
    const afterTests = (await (await api('GET', '/webhooks')).json()) as { data: { status: string }[] };
    expect(afterTests.data[0]!.status).toBe('active');
    before = receiver.received.length;
    for (let i = 0; i < 10; i++) expect((await api('POST', '/orders', sandboxOrder())).status).toBe(200);
    await until('ten failed orders', () => receiver.received.length >= before + 10);
    await page.getByRole('link', { name: 'Home' }).click();
    await page.reload();
    await page.getByText('A webhook endpoint is disabled').waitFor();
    await check('webhook-disabled-notice');
    failing.all = false;
    await page.getByRole('link', { name: 'Review and enable it' }).click();
    await page.getByText(`${receiver.url} is disabled`).waitFor();
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Endpoint enabled').waitFor();
    await until('the held events', () => receiver.received.length >= before + 20);

    // Pause: nothing is sent, the event waits and goes out on resume; no breaker notice.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText(`${receiver.url} is paused`, { exact: true }).waitFor();
    before = receiver.received.length;
    const paused = sandboxOrder();
    expect((await api('POST', '/orders', paused)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(received(paused.orderReference)).toHaveLength(0);
    await lookAtBothSizes(page, 'webhook-paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Endpoint enabled').waitFor();
    await until('the event held while paused', () => received(paused.orderReference).length === 1);

    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Integration readiness' }).waitFor();
    expect(await page.getByText('A webhook endpoint is disabled').count()).toBe(0);

    // Delete, after a confirmation naming the URL.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText(`${receiver.url}: nothing more is sent to it`).waitFor();
    await check('webhook-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(((await (await api('GET', '/webhooks')).json()) as { data: unknown[] }).data).toHaveLength(1);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No sandbox endpoints yet').waitFor();
    expect(((await (await api('GET', '/webhooks')).json()) as { data: unknown[] }).data).toEqual([]);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: 'Invite a teammate' }).click();
    await page.getByLabel('Email').fill('dev@seller.example');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    await page.getByTestId('invite-link').waitFor();
    await check('team-invite');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('user.totp_enabled').waitFor();
    await check('audit');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    expect(opened.foreign, opened.foreign.join('\n')).toEqual([]);
    expect(opened.errors, opened.errors.join('\n')).toEqual([]);
  }, 240_000);
});
