import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { sellerGet } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { companyEvent, deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import { publishDue } from '../webhooks/publisher.service.js';
import { MAX_ATTEMPTS } from '../webhooks/retry-schedule.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();

const post = async (seller: TestSeller, path: string, payload?: object) => {
  const res = await call(t, { method: 'POST', url: `/api/seller/v1${path}`, headers: seller.auth, payload });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data;
};

const statusOf = async (seller: TestSeller) => {
  const res = await sellerGet(t, seller, '/integration/status');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
/** An active endpoint whose latest attempt succeeded. */
const healthyEndpoint = {
  status: 'active',
  disabledReason: null,
  disabledAt: null,
  enableWith: null,
  consecutiveFailures: 0,
  lastSuccessfulDeliveryAt: expect.any(String),
};
const webhooksCheck = (data: { checks: { check: string }[] }) =>
  data.checks.find((c) => c.check === 'webhooks');

describe('GET /integration/status: webhook endpoint health', () => {
  it('without an endpoint: none counted, the check pending on creating one', async () => {
    const seller = await makeSeller(t);
    const data = await statusOf(seller);
    expect(data.webhooks).toEqual({ endpointCount: 0, activeCount: 0, endpoints: [] });
    expect(webhooksCheck(data)).toEqual({
      check: 'webhooks',
      status: 'pending',
      action: 'create_webhook_endpoint',
    });
  });

  it('an active endpoint: its pending delivery, then the last successful delivery time; only its company sees it', async () => {
    const seller = await makeSeller(t);
    const hook = await receiver();
    const { id } = await post(seller, '/webhooks', { url: hook.url });
    await post(seller, `/webhooks/${id}/test`);
    await deliverAll(t, { total: 128, perEndpoint: 1 });
    await post(seller, `/webhooks/${id}/test`);
    await publishDue(t.ctx); // the second ping becomes a delivery, not yet sent

    const queued = await statusOf(seller);
    const host = `127.0.0.1:${hook.port}`;
    expect(queued.webhooks.endpoints).toEqual([
      { id, host, ...healthyEndpoint, deliveries: { pending: 1, failed: 0 } },
    ]);
    expect(hook.received).toHaveLength(1);
    const lastSuccess = Date.parse(queued.webhooks.endpoints[0].lastSuccessfulDeliveryAt);
    expect(lastSuccess).toBeLessThanOrEqual(t.ctx.clock.now());

    await deliverAll(t);
    const delivered = await statusOf(seller);
    expect(delivered.webhooks).toMatchObject({ endpointCount: 1, activeCount: 1 });
    expect(delivered.webhooks.endpoints[0].deliveries).toEqual({ pending: 0, failed: 0 });
    expect(webhooksCheck(delivered)).toEqual({ check: 'webhooks', status: 'ok', action: null });

    const other = await makeSeller(t);
    expect((await statusOf(other)).webhooks.endpointCount).toBe(0);
  });

  it('an endpoint the breaker disabled: disabled with its reason, the check asks to enable it', async () => {
    const seller = await makeSeller(t);
    let healthy = false;
    const failing = await receiver((res) => res.writeHead(healthy ? 204 : 503).end());
    const { id } = await post(seller, '/webhooks', { url: failing.url });
    for (let i = 0; i < 10; i++) await companyEvent(t, seller.company.id);
    await deliverAll(t, { total: 128, perEndpoint: 1 });
    expect(failing.received).toHaveLength(10);

    const broken = await statusOf(seller);
    expect(broken.webhooks).toMatchObject({ endpointCount: 1, activeCount: 0 });
    const [endpoint] = broken.webhooks.endpoints;
    expect(endpoint).toMatchObject({
      id,
      status: 'disabled',
      enableWith: `POST /webhooks/${id}/enable`,
      consecutiveFailures: 10,
      lastSuccessfulDeliveryAt: null,
      deliveries: { pending: 10, failed: 0 },
    });
    expect(endpoint.disabledReason).toContain('10 consecutive failed deliveries');
    expect(endpoint.disabledReason).toContain('HTTP 503');
    expect(Date.parse(endpoint.disabledAt)).toBeLessThanOrEqual(t.ctx.clock.now());
    expect(webhooksCheck(broken)).toEqual({
      check: 'webhooks',
      status: 'action_required',
      action: 'enable_webhook_endpoint',
    });
    expect(broken.ready).toBe(false);

    healthy = true;
    await post(seller, `/webhooks/${id}/enable`);
    await deliverAll(t);
    const healed = await statusOf(seller);
    expect(healed.webhooks.endpoints[0]).toEqual({
      id,
      host: expect.any(String),
      ...healthyEndpoint,
      deliveries: { pending: 0, failed: 0 },
    });
    expect(webhooksCheck(healed)).toMatchObject({ status: 'ok', action: null });
  });

  it('counts a delivery whose retries ran out as failed, while successes between keep the endpoint active', async () => {
    const seller = await makeSeller(t);
    let doomed: string | undefined;
    const hook = await receiver((res, got) => res.writeHead(got.json.eventId === doomed ? 500 : 204).end());
    const { id } = await post(seller, '/webhooks', { url: hook.url });
    doomed = (await post(seller, `/webhooks/${id}/test`)).eventId;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await post(seller, `/webhooks/${id}/test`);
      await deliverAll(t);
      const moved = await call(t, {
        method: 'POST',
        url: '/admin/v1/clock',
        headers: adminHeaders,
        payload: { advanceSeconds: 25 * 3600 },
      });
      expect(moved.status).toBe(200);
    }
    await post(seller, `/webhooks/${id}/test`); // a success after the last failed attempt
    await deliverAll(t);
    expect(hook.received.filter((r) => r.json.eventId === doomed)).toHaveLength(MAX_ATTEMPTS);
    const data = await statusOf(seller);
    expect(data.webhooks.endpoints[0]).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      lastSuccessfulDeliveryAt: expect.any(String),
      deliveries: { pending: 0, failed: 1 },
    });
    expect(webhooksCheck(data)).toMatchObject({ status: 'ok' });
  });
});
