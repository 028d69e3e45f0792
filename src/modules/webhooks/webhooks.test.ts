import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { alwaysOrder, post } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { companyEvent, deliverAll, type Received, useReceivers } from '../../../test/webhook-receiver.js';
import { emit } from '../events/outbox.service.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const url = (path: string) => `/api/seller/v1${path}`;
const receiver = useReceivers();

const realEvent = (seller: TestSeller) => companyEvent(t, seller.company.id);

const call = (
  seller: TestSeller,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  payload?: object,
) => t.app.inject({ method, url: url(path), headers: seller.auth, ...(payload ? { payload } : {}) });

async function endpoint(seller: TestSeller, target: string, extra: object = {}) {
  const res = await call(seller, 'POST', '/webhooks', { url: target, ...extra });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; secret: string };
}

function verifyService(got: Received, secret: string): boolean {
  const parts = String(got.headers['x-service-signature']).split(',');
  const ts = parts.find((p) => p.startsWith('t='))!.slice(2);
  const expected = createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex');
  return parts.filter((p) => p.startsWith('v1=')).some((p) => p.slice(3) === expected);
}

function verifyStandard(got: Received, secret: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${got.headers['webhook-id']}.${got.headers['webhook-timestamp']}.${got.body}`;
  const expected = createHmac('sha256', key).update(signed).digest('base64');
  return String(got.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

async function moveClock(ms: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/clock',
    headers: adminHeaders,
    payload: { advanceSeconds: Math.ceil(ms / 1000) },
  });
  expect(res.statusCode).toBe(200);
}

describe('webhook endpoints', () => {
  it('creates an endpoint in the pinned shape, shows the secret once and keeps it sealed', async () => {
    const seller = await makeSeller(t);
    const res = await call(seller, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/in',
      description: 'main',
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual([
      'createdAt',
      'description',
      'eventTypes',
      'id',
      'secret',
      'status',
      'url',
    ]);
    expect(data).toMatchObject({ url: 'https://hooks.example.com/in', eventTypes: ['*'], status: 'active' });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await call(seller, 'GET', '/webhooks');
    expect(list.json().data).toHaveLength(1);
    expect(list.body).not.toContain(data.secret);
    const row = await t.ctx.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(data.secret.slice(6, 20));
    expect(t.ctx.secrets!.open(row.secret_sealed)).toBe(data.secret);
  });

  it('refuses unknown event types by name, and answers 404 for another company', async () => {
    const seller = await makeSeller(t);
    const bad = await call(seller, 'POST', '/webhooks', {
      url: 'https://a.example.com',
      eventTypes: ['order.fulfilled', 'order.teleported'],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(bad.json().message).toContain('order.teleported');
    const mine = await endpoint(seller, 'https://a.example.com');
    const other = await makeSeller(t);
    for (const [method, path] of [
      ['PATCH', `/webhooks/${mine.id}`],
      ['DELETE', `/webhooks/${mine.id}`],
      ['POST', `/webhooks/${mine.id}/test`],
      ['POST', `/webhooks/${mine.id}/enable`],
      ['GET', `/webhooks/${mine.id}/deliveries`],
    ] as const) {
      const res = await call(other, method, path, method === 'PATCH' ? { description: 'x' } : undefined);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
  });

  it('enforces the endpoint limit per company', async () => {
    const seller = await makeSeller(t);
    for (let i = 0; i < 16; i++) await endpoint(seller, `https://h${i}.example.com`);
    const over = await call(seller, 'POST', '/webhooks', { url: 'https://h17.example.com' });
    expect(over.statusCode).toBe(422);
    expect(over.json().details.limit).toBe(16);
  });

  it('deletes an endpoint and its log', async () => {
    const seller = await makeSeller(t);
    const r = await receiver();
    const ep = await endpoint(seller, r.url);
    await call(seller, 'POST', `/webhooks/${ep.id}/test`);
    await deliverAll(t);
    expect((await call(seller, 'DELETE', `/webhooks/${ep.id}`)).statusCode).toBe(204);
    expect((await call(seller, 'GET', '/webhooks')).json().data).toEqual([]);
    const left = await t.ctx.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('endpoint_id', '=', ep.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('delivery', () => {
  it('delivers order.fulfilled signed under both schemes, with the envelope and no key', async () => {
    const seller = await makeSeller(t);
    const r = await receiver();
    const ep = await endpoint(seller, r.url, { eventTypes: ['order.fulfilled'] });
    const order = await post(t, seller, '/orders', alwaysOrder());
    expect(order.status).toBe(200);
    await deliverAll(t);
    expect(r.received.map((x) => x.json.eventType)).toEqual(['order.fulfilled']);
    const got = r.received[0]!;
    expect(verifyService(got, ep.secret)).toBe(true);
    expect(verifyService(got, `${ep.secret}x`)).toBe(false);
    expect(verifyStandard(got, ep.secret)).toBe(true);
    expect(got.headers['x-service-event-id']).toBe(got.json.eventId);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toContain('SellerDistributionAPI');
    expect(got.json).toMatchObject({
      eventVersion: 1,
      data: { orderReference: order.body.data.orderReference, quantity: 1 },
    });
    for (const key of order.body.data.keys ?? []) expect(got.body).not.toContain(String(key.key ?? key));
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const seller = await makeSeller(t);
    const r = await receiver();
    const ep = await endpoint(seller, r.url);
    const rotated = await call(seller, 'PATCH', `/webhooks/${ep.id}`, { rotateSecret: true });
    const secret = rotated.json().data.secret as string;
    expect(secret).not.toBe(ep.secret);
    expect((await call(seller, 'GET', '/webhooks')).body).not.toContain(secret);
    await call(seller, 'POST', `/webhooks/${ep.id}/test`);
    await deliverAll(t);
    const during = r.received.at(-1)!;
    expect(String(during.headers['x-service-signature']).match(/v1=/g)).toHaveLength(2);
    expect(verifyService(during, secret) && verifyService(during, ep.secret)).toBe(true);
    expect(verifyStandard(during, secret) && verifyStandard(during, ep.secret)).toBe(true);
    await moveClock(24 * 3600_000 + 1000);
    await call(seller, 'POST', `/webhooks/${ep.id}/test`);
    await deliverAll(t);
    const after = r.received.at(-1)!;
    expect(String(after.headers['x-service-signature']).match(/v1=/g)).toHaveLength(1);
    expect(verifyService(after, secret)).toBe(true);
    expect(verifyService(after, ep.secret)).toBe(false);
  });

  it('retries on the schedule under the test clock, honouring Retry-After', async () => {
    const seller = await makeSeller(t);
    let answer = 500;
    const r = await receiver((res) =>
      res.writeHead(answer, answer === 429 ? { 'retry-after': '600' } : {}).end(),
    );
    const ep = await endpoint(seller, r.url);
    const ping = (await call(seller, 'POST', `/webhooks/${ep.id}/test`)).json().data.eventId;
    const start = t.ctx.clock.now();
    await deliverAll(t);
    const log = async () => (await call(seller, 'GET', `/webhooks/${ep.id}/deliveries`)).json().data;
    let [first] = await log();
    expect(first).toMatchObject({ eventId: ping, eventType: 'test.ping', attempt: 1, statusCode: 500 });
    const due = Date.parse(first.nextRetryAt) - start;
    expect(due).toBeGreaterThanOrEqual(4500);
    expect(due).toBeLessThanOrEqual(5500 + 1000);
    await deliverAll(t);
    expect(r.received).toHaveLength(1); // not due yet
    answer = 429;
    await moveClock(6000);
    await deliverAll(t);
    [first] = await log();
    expect(first).toMatchObject({ attempt: 2, statusCode: 429 });
    // the schedule says 5 min; Retry-After asked for 10 min
    const wait = Date.parse(first.nextRetryAt) - Date.parse(first.attemptedAt);
    expect(wait).toBe(600_000);
    answer = 200;
    await moveClock(600_000);
    await deliverAll(t);
    [first] = await log();
    expect(first).toMatchObject({ attempt: 3, statusCode: 200, nextRetryAt: null });
    expect(r.received.map((x) => x.json.eventId)).toEqual([ping, ping, ping]);
  });

  it('opens the breaker at exactly 10 failures, notifies the other endpoints once, and flushes on enable in order', async () => {
    const seller = await makeSeller(t);
    let healthy = false;
    const failing = await receiver((res) => res.writeHead(healthy ? 200 : 503).end());
    const other = await receiver();
    const bad = await endpoint(seller, failing.url);
    await endpoint(seller, other.url, { eventTypes: ['system.webhook_endpoint_disabled'] });
    // Real events: test sends neither count toward the breaker nor reset it (the next test).
    const status = async () =>
      (await call(seller, 'GET', '/webhooks')).json().data.find((e: { id: string }) => e.id === bad.id)
        .status;
    for (let i = 0; i < 9; i++) await realEvent(seller);
    await deliverAll(t, { total: 128, perEndpoint: 1 });
    expect(await status()).toBe('active');
    await realEvent(seller);
    await deliverAll(t, { total: 128, perEndpoint: 1 });
    expect(await status()).toBe('disabled');
    expect(failing.received).toHaveLength(10);
    const notices = other.ofType('system.webhook_endpoint_disabled');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.json.data).toMatchObject({
      endpointId: bad.id,
      endpointHost: new URL(failing.url).host,
      consecutiveFailures: 10,
    });
    expect(failing.ofType('system.webhook_endpoint_disabled')).toEqual([]);

    // buffered while disabled: nothing is sent, even after the retries fall due
    const buffered: string[] = [];
    for (let i = 0; i < 3; i++) buffered.push(await realEvent(seller));
    await moveClock(3600_000);
    await deliverAll(t);
    expect(failing.received).toHaveLength(10);

    healthy = true;
    const enabled = await call(seller, 'POST', `/webhooks/${bad.id}/enable`);
    expect(enabled.json().data.status).toBe('active');
    await deliverAll(t, { total: 128, perEndpoint: 1 });
    const flushed = failing.received.slice(10).map((x) => x.json.eventId);
    const firstTen = failing.received.slice(0, 10).map((x) => x.json.eventId);
    expect(flushed).toEqual([...firstTen, ...buffered]);
    expect(other.ofType('system.webhook_endpoint_disabled')).toHaveLength(1);
  });

  it('delays webhook_delay_30s events by 30 s and still answers 200', async () => {
    const seller = await makeSeller(t);
    const r = await receiver();
    await endpoint(seller, r.url, { eventTypes: ['order.fulfilled'] });
    const res = await post(t, seller, '/orders', alwaysOrder(), {
      'x-service-sandbox-simulate': 'webhook_delay_30s',
    });
    expect(res.status).toBe(200);
    await deliverAll(t);
    expect(r.received).toHaveLength(0);
    await moveClock(30_000);
    await deliverAll(t);
    expect(r.ofType('order.fulfilled')).toHaveLength(1);
  });

  it('sends up to 64 deliveries at once to one endpoint, and not a 65th', async () => {
    const seller = await makeSeller(t);
    const held = await receiver(() => {});
    await endpoint(seller, held.url);
    for (let i = 0; i < 70; i++) await companyEvent(t, seller.company.id, `ord-${i}`);
    const { DeliveryWorker } = await import('./delivery.service.js');
    const { publishDue } = await import('./publisher.service.js');
    const worker = new DeliveryWorker(t.ctx);
    await publishDue(t.ctx);
    const started = Date.now();
    while (held.received.length < 64 && Date.now() - started < 5000) {
      await worker.round();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (let i = 0; i < 5; i++) {
      await worker.round();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(held.received).toHaveLength(64);
    await held.close();
    await worker.drain();
  });

  it('does not let a hanging receiver delay another endpoint', async () => {
    const seller = await makeSeller(t);
    const hanging = await receiver(() => {});
    const fast = await receiver();
    const slow = await endpoint(seller, hanging.url);
    const quick = await endpoint(seller, fast.url);
    for (let i = 0; i < 10; i++) await call(seller, 'POST', `/webhooks/${slow.id}/test`);
    await call(seller, 'POST', `/webhooks/${quick.id}/test`);
    const { DeliveryWorker, DEFAULT_LIMITS } = await import('./delivery.service.js');
    const { publishDue } = await import('./publisher.service.js');
    const worker = new DeliveryWorker(t.ctx);
    const started = Date.now();
    await publishDue(t.ctx);
    while (fast.received.length === 0 && Date.now() - started < 5000) {
      await worker.round();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fast.received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(hanging.received.length).toBeGreaterThan(0);
    expect(hanging.received.length).toBeLessThanOrEqual(DEFAULT_LIMITS.perEndpoint);
    await hanging.close();
    await worker.drain();
  });
});
