import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { makeKey, makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { describeRouteContract } from '../../../test/route-contract.js';
import { deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import { emit } from '../events/outbox.service.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receivers = useReceivers();
const url = (path: string) => `/api/seller/v1${path}`;

const call = (
  seller: TestSeller,
  method: 'POST' | 'GET' | 'PATCH',
  path: string,
  payload?: object,
  headers = {},
) =>
  t.app.inject({
    method,
    url: url(path),
    headers: { ...seller.auth, ...headers },
    ...(payload ? { payload } : {}),
  });

async function endpointOf(seller: TestSeller, target = 'https://hooks.example.com/in', extra = {}) {
  const res = await call(seller, 'POST', '/webhooks', { url: target, ...extra });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

async function ping(seller: TestSeller, endpointId: string) {
  const res = await call(seller, 'POST', `/webhooks/${endpointId}/test`);
  expect(res.statusCode).toBe(202);
  return res.json().data.eventId as string;
}

async function moveClock(seconds: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/clock',
    headers: adminHeaders,
    payload: { advanceSeconds: seconds },
  });
  expect(res.statusCode).toBe(200);
}

const deliveriesOf = (endpointId: string) =>
  t.ctx.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** An endpoint of the seller's company, created with a full key (the seller's may lack the scope). */
const endpointOfCompany = async (seller: TestSeller) =>
  endpointOf({ ...seller, ...(await makeKey(t, seller.company.id)) });

/** Setup: the deliveries of these events to this endpoint exhausted their retries. */
const markFailed = (endpointId: string, eventIds: string[]) =>
  t.ctx.db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed' })
    .where('endpoint_id', '=', endpointId)
    .where('event_id', 'in', eventIds)
    .execute();

describeRouteContract('POST /webhooks/{id}/resend', t, {
  method: 'POST',
  url: async (_t, seller) => url(`/webhooks/${await endpointOfCompany(seller)}/resend`),
  body: { eventId: 'evt_unknown' },
  scopes: ['seller:webhooks:write'],
  otherCompanyUrl: async (_t, owner) => url(`/webhooks/${await endpointOf(owner)}/resend`),
  badInput: { body: { eventId: '' } },
});

describeRouteContract('POST /webhooks/{id}/replay', t, {
  method: 'POST',
  url: async (_t, seller) => url(`/webhooks/${await endpointOfCompany(seller)}/replay`),
  body: { since: '2026-01-01T00:00:00Z' },
  scopes: ['seller:webhooks:write'],
  otherCompanyUrl: async (_t, owner) => url(`/webhooks/${await endpointOf(owner)}/replay`),
  badInput: { body: { since: 'yesterday' } },
});

describeRouteContract('GET /webhooks/{id}/replay', t, {
  method: 'GET',
  url: async (_t, seller) =>
    url(`/webhooks/${await endpointOfCompany(seller)}/replay?since=2026-01-01T00:00:00Z`),
  scopes: ['seller:webhooks:read'],
  otherCompanyUrl: async (_t, owner) =>
    url(`/webhooks/${await endpointOf(owner)}/replay?since=2026-01-01T00:00:00Z`),
  badInput: { url: url('/webhooks/00000000-0000-4000-8000-000000000000/replay?since=yesterday') },
});

describeRouteContract('POST /webhooks/{id}/disable', t, {
  method: 'POST',
  url: async (_t, seller) => url(`/webhooks/${await endpointOfCompany(seller)}/disable`),
  scopes: ['seller:webhooks:write'],
  otherCompanyUrl: async (_t, owner) => url(`/webhooks/${await endpointOf(owner)}/disable`),
  badInput: { body: { reason: 'holiday' } },
});

describe('resending one event', () => {
  it('stores a new delivery due now, delivers it, and answers the same delivery for a repeated Idempotency-Key', async () => {
    const seller = await makeSeller(t);
    let answer = 500;
    const receiver = await receivers((res) => res.writeHead(answer).end());
    const endpointId = await endpointOf(seller, receiver.url);
    const eventId = await ping(seller, endpointId);
    await deliverAll(t);
    expect(await deliveriesOf(endpointId)).toMatchObject([{ event_id: eventId, status: 'pending' }]);

    answer = 204;
    const headers = { 'idempotency-key': 'resend-1' };
    const first = await call(seller, 'POST', `/webhooks/${endpointId}/resend`, { eventId }, headers);
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ eventId, endpointId, status: 'pending' });
    const again = await call(seller, 'POST', `/webhooks/${endpointId}/resend`, { eventId }, headers);
    expect(again.json().data.deliveryId).toBe(first.json().data.deliveryId);

    const stored = await deliveriesOf(endpointId);
    expect(stored).toHaveLength(2);
    expect(stored[1]).toMatchObject({
      id: first.json().data.deliveryId,
      event_id: eventId,
      status: 'pending',
    });
    await deliverAll(t);
    expect((await deliveriesOf(endpointId)).find((d) => d.id === stored[1]!.id)?.status).toBe('succeeded');
    expect(receiver.received.map((r) => r.json.eventId)).toEqual([eventId, eventId]);
  });

  it("answers 404 for another company's event or endpoint and stores nothing", async () => {
    const seller = await makeSeller(t);
    const other = await makeSeller(t);
    const receiver = await receivers();
    const mine = await endpointOf(seller, receiver.url);
    const theirs = await endpointOf(other, receiver.url);
    const theirEvent = await ping(other, theirs);
    const myEvent = await ping(seller, mine);
    await deliverAll(t);
    const before = (await deliveriesOf(mine)).length + (await deliveriesOf(theirs)).length;

    const foreignEvent = await call(seller, 'POST', `/webhooks/${mine}/resend`, { eventId: theirEvent });
    expect(foreignEvent.statusCode).toBe(404);
    expect(foreignEvent.json().code).toBe('NOT_FOUND');
    const foreignEndpoint = await call(seller, 'POST', `/webhooks/${theirs}/resend`, { eventId: myEvent });
    expect(foreignEndpoint.statusCode).toBe(404);
    expect((await deliveriesOf(mine)).length + (await deliveriesOf(theirs)).length).toBe(before);
  });
});

describe('replaying failed and undelivered events since a time', () => {
  it('re-queues failed events since the time, not earlier, pending or delivered ones, and nothing twice', async () => {
    const seller = await makeSeller(t);
    const failing = await receivers((res) => res.writeHead(500).end());
    const main = await endpointOf(seller, failing.url);
    const other = await endpointOf(seller, failing.url);
    const early = await ping(seller, main);
    await moveClock(60);
    const sinceIso = new Date(t.ctx.clock.now()).toISOString();
    await moveClock(1);
    const failedOne = await ping(seller, main);
    const failedTwo = await ping(seller, main);
    const stillPending = await ping(seller, main);
    await ping(seller, other); // addressed to the other endpoint alone
    await deliverAll(t);
    await markFailed(main, [early, failedOne, failedTwo]);

    const res = await call(seller, 'POST', `/webhooks/${main}/replay`, { since: sinceIso });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ endpointId: main, replayed: 2, more: false });
    expect(res.json().data.eventIds).toEqual([failedOne, failedTwo]);
    const stored = await deliveriesOf(main);
    const pendingNow = stored.filter((d) => d.status === 'pending').map((d) => d.event_id);
    expect(pendingNow.sort()).toEqual([failedOne, failedTwo, stillPending].sort());
    expect(stored.filter((d) => d.event_id === early).map((d) => d.status)).toEqual(['failed']);

    const twice = await call(seller, 'POST', `/webhooks/${main}/replay`, { since: sinceIso });
    expect(twice.json().data).toMatchObject({ replayed: 0, eventIds: [] });
    expect(await deliveriesOf(main)).toHaveLength(stored.length);
  });

  it('never replays events older than the endpoint, counts what a replay would queue first, and sends what the type filter skipped then', async () => {
    const seller = await makeSeller(t);
    const tenant = { companyId: seller.company.id, environment: 'sandbox' };
    const since = new Date(t.ctx.clock.now() - 60_000).toISOString();
    const pulled = (orderReference: string) =>
      t.ctx.db
        .transaction()
        .execute((trx) =>
          emit(t.ctx, trx, [tenant], 'keys.pulled', { orderReference, skuCode: 'SKU', pulled: 2 }),
        );
    await pulled('ord-before');
    await deliverAll(t);
    await moveClock(1);
    const receiver = await receivers();
    const late = await endpointOf(seller, receiver.url, { eventTypes: ['order.failed'] });
    await moveClock(1);
    const [after] = await pulled('ord-after');
    await deliverAll(t);
    expect(await deliveriesOf(late)).toEqual([]);
    await call(seller, 'PATCH', `/webhooks/${late}`, { eventTypes: ['keys.pulled'] });

    const preview = await call(seller, 'GET', `/webhooks/${late}/replay?since=${encodeURIComponent(since)}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({ endpointId: late, count: 1, perCall: 500 });
    expect(Date.parse(preview.json().data.from)).toBeGreaterThan(Date.parse(since));
    expect(await deliveriesOf(late)).toEqual([]);
    const res = await call(seller, 'POST', `/webhooks/${late}/replay`, { since });
    expect(res.json().data).toMatchObject({ replayed: 1, eventIds: [after], from: preview.json().data.from });
    await deliverAll(t);
    expect(receiver.received.map((r) => r.json.eventId)).toEqual([after]);
    const again = await call(seller, 'GET', `/webhooks/${late}/replay?since=${encodeURIComponent(since)}`);
    expect(again.json().data.count).toBe(0);
  });
});
