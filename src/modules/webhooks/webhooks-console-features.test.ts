import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { companyEvent, deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import { emit } from '../events/outbox.service.js';
import { trimAttemptBodies } from './retention.service.js';
import { RESPONSE_BODY_BYTES, utf8Prefix } from './sender.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();

const call = (
  seller: TestSeller,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/seller/v1${path}`,
    headers: seller.auth,
    ...(payload ? { payload } : {}),
  });

async function endpoint(seller: TestSeller, url: string, extra: object = {}): Promise<string> {
  const res = await call(seller, 'POST', '/webhooks', { url, ...extra });
  expect(res.statusCode).toBe(201);
  return res.json().data.id;
}

const realEvent = (seller: TestSeller, orderReference?: string) =>
  companyEvent(t, seller.company.id, orderReference);

async function moveClock(seconds: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/clock',
    headers: adminHeaders,
    payload: { advanceSeconds: seconds },
  });
  expect(res.statusCode).toBe(200);
}

const log = async (seller: TestSeller, id: string, query = '') =>
  (await call(seller, 'GET', `/webhooks/${id}/deliveries${query}`)).json();

describe('pause and resume', () => {
  it('holds what is published while paused, sends nothing, and sends it all oldest first on resume', async () => {
    const seller = await makeSeller(t);
    const r = await receiver();
    const id = await endpoint(seller, r.url);
    const paused = await call(seller, 'POST', `/webhooks/${id}/disable`);
    expect(paused.statusCode).toBe(200);
    expect(paused.json().data).toMatchObject({ status: 'disabled', disabledBy: 'seller' });
    const events = [await realEvent(seller, 'a'), await realEvent(seller, 'b')];
    await deliverAll(t);
    expect(r.received).toEqual([]);
    const held = await t.ctx.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('endpoint_id', '=', id)
      .execute();
    expect(held.map((d) => d.status)).toEqual(['held', 'held']);
    // A second pause changes nothing; the breaker's notice is not sent for a pause.
    expect((await call(seller, 'POST', `/webhooks/${id}/disable`)).json().data.disabledBy).toBe('seller');
    const resumed = await call(seller, 'POST', `/webhooks/${id}/enable`);
    expect(resumed.json().data).toMatchObject({ status: 'active', disabledBy: null });
    await deliverAll(t, { total: 128, perEndpoint: 1 });
    expect(r.received.map((x) => x.json.eventId)).toEqual(events);
    expect(r.ofType('system.webhook_endpoint_disabled')).toEqual([]);
  });

  it('answers 404 for another company and lets the console pause, resume and delete with the same services', async () => {
    const owner = await consoleUser(t, 'developer');
    const stranger = await makeSeller(t);
    const created = await consoleCall(t, owner, 'POST', '/webhooks', {
      url: 'https://hooks.example.com/a',
      eventTypes: ['*'],
    });
    const id = created.body.data.id as string;
    expect((await call(stranger, 'POST', `/webhooks/${id}/disable`)).statusCode).toBe(404);
    expect((await consoleCall(t, owner, 'POST', `/webhooks/${id}/disable`)).body.data.disabledBy).toBe(
      'seller',
    );
    expect((await consoleCall(t, owner, 'POST', `/webhooks/${id}/enable`)).body.data.status).toBe('active');
    expect((await consoleCall(t, owner, 'DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await consoleCall(t, owner, 'GET', '/webhooks')).body.data).toEqual([]);
    expect((await consoleCall(t, owner, 'DELETE', `/webhooks/${id}`)).status).toBe(404);
  });
});

describe('the delivery log', () => {
  it('pages and filters by outcome and event type', async () => {
    const seller = await makeSeller(t);
    const r = await receiver((res, got) =>
      res.writeHead(got.json.eventType === 'test.ping' ? 500 : 200).end(),
    );
    const id = await endpoint(seller, r.url);
    for (let i = 0; i < 3; i++) await realEvent(seller, `o-${i}`);
    await call(seller, 'POST', `/webhooks/${id}/test`);
    await deliverAll(t);
    const failed = await log(seller, id, '?status=failed');
    expect(failed.data.map((a: { eventType: string }) => a.eventType)).toEqual(['test.ping']);
    const ok = await log(seller, id, '?status=succeeded&eventType=keys.pulled&limit=2');
    expect(ok.data).toHaveLength(2);
    expect(ok.meta.hasMore).toBe(true);
    const rest = await log(
      seller,
      id,
      `?status=succeeded&eventType=keys.pulled&limit=2&cursor=${ok.meta.nextCursor}`,
    );
    expect(rest.data).toHaveLength(1);
    expect(rest.meta.hasMore).toBe(false);
    expect((await log(seller, id, '?eventType=order.failed')).data).toEqual([]);
    const bad = await call(seller, 'GET', `/webhooks/${id}/deliveries?status=maybe`);
    expect(bad.statusCode).toBe(422);
  });

  it("keeps the receiver's answer, its first 1 KiB cut on a character, for 14 days", async () => {
    const seller = await makeSeller(t);
    // 1023 ASCII bytes then a 2-byte character: the 1 KiB cut falls inside it.
    const answer = `${'x'.repeat(RESPONSE_BODY_BYTES - 1)}é and more`;
    const r = await receiver((res) => res.writeHead(400, { 'content-type': 'text/plain' }).end(answer));
    const id = await endpoint(seller, r.url);
    await realEvent(seller);
    await deliverAll(t);
    const [attempt] = (await log(seller, id)).data;
    expect(attempt.responseBody).toBe('x'.repeat(RESPONSE_BODY_BYTES - 1));
    expect(JSON.stringify(attempt.responseBody)).not.toContain('\\ufffd');
    expect(utf8Prefix(Buffer.from('aé'), 2)).toBe('a');
    expect(utf8Prefix(Buffer.from('aé'), 3)).toBe('aé');

    await moveClock(13 * 86_400);
    expect(await trimAttemptBodies(t.ctx)).toBe(false);
    expect((await log(seller, id)).data.at(-1).responseBody).toBe(attempt.responseBody);
    await moveClock(2 * 86_400);
    expect((await log(seller, id)).data.at(-1).responseBody).toBeNull();
    await trimAttemptBodies(t.ctx);
    const stored = await t.ctx.db
      .selectFrom('webhook_attempts')
      .select(['response_body', 'attempt'])
      .where('endpoint_id', '=', id)
      .orderBy('seq')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ response_body: null, attempt: 1 });
  });

  it('numbers attempts on across a resend and shows no next retry on a superseded attempt', async () => {
    const seller = await makeSeller(t);
    let answer = 500;
    const r = await receiver((res) => res.writeHead(answer).end());
    const id = await endpoint(seller, r.url);
    const eventId = await realEvent(seller);
    await deliverAll(t);
    await moveClock(10);
    await deliverAll(t);
    let data = (await log(seller, id)).data;
    expect(data.map((a: { attempt: number }) => a.attempt)).toEqual([2, 1]);
    expect(data[0].nextRetryAt).not.toBeNull();
    expect(data[1].nextRetryAt).toBeNull();

    answer = 204;
    const resent = await call(seller, 'POST', `/webhooks/${id}/resend`, { eventId });
    expect(resent.statusCode).toBe(201);
    data = (await log(seller, id)).data;
    expect(data.map((a: { nextRetryAt: string | null }) => a.nextRetryAt)).toEqual([null, null]);
    await moveClock(3600);
    await deliverAll(t);
    data = (await log(seller, id)).data;
    expect(data.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([
      [3, 204],
      [2, 500],
      [1, 500],
    ]);
    // The superseded delivery's retry is not sent: the event went out three times, not four.
    expect(r.received).toHaveLength(3);
    const statuses = await t.ctx.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('endpoint_id', '=', id)
      .orderBy('created_at')
      .execute();
    expect(statuses.map((d) => d.status)).toEqual(['superseded', 'succeeded']);
  });
});

describe('test sends', () => {
  it('do not count toward the circuit breaker: eleven failed tests leave the endpoint active', async () => {
    const seller = await makeSeller(t);
    const r = await receiver((res) => res.writeHead(500).end());
    const id = await endpoint(seller, r.url);
    for (let i = 0; i < 11; i++)
      expect((await call(seller, 'POST', `/webhooks/${id}/test`)).statusCode).toBe(202);
    await deliverAll(t);
    expect(r.received).toHaveLength(11);
    const [row] = (await call(seller, 'GET', '/webhooks')).json().data;
    expect(row.status).toBe('active');
    const counted = await t.ctx.db
      .selectFrom('webhook_endpoints')
      .select('consecutive_failures')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(counted.consecutive_failures).toBe(0);
  });

  it("send any event type's example payload to that endpoint alone, outside GET /events (a test.ping is listed)", async () => {
    const seller = await makeSeller(t);
    const target = await receiver();
    const bystander = await receiver();
    const id = await endpoint(seller, target.url, { eventTypes: ['keys.pulled'] });
    await endpoint(seller, bystander.url);
    const sent = await call(seller, 'POST', `/webhooks/${id}/test`, { eventType: 'order.fulfilled' });
    expect(sent.statusCode).toBe(202);
    expect(sent.json().data.eventType).toBe('order.fulfilled');
    const ping = await call(seller, 'POST', `/webhooks/${id}/test`);
    await deliverAll(t);
    expect(target.received).toHaveLength(2);
    expect(target.received.find((r) => r.json.eventType === 'order.fulfilled')!.json).toMatchObject({
      eventType: 'order.fulfilled',
      data: { orderReference: 'order-1001', skuCode: 'SKU-EXAMPLE-01' },
    });
    expect(bystander.received).toEqual([]);
    const feed = await call(seller, 'GET', '/events');
    expect(
      feed.json().data.map((e: { eventId: string; eventType: string }) => [e.eventId, e.eventType]),
    ).toEqual([[ping.json().data.eventId, 'test.ping']]);
    const unknown = await call(seller, 'POST', `/webhooks/${id}/test`, { eventType: 'order.teleported' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details.issues[0].field).toBe('eventType');
  });
});
