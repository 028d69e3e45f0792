import { describe, expect, it } from 'vitest';
import { type ConsoleUser, consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';
import { deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import { emit } from '../events/outbox.service.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receivers = useReceivers();

/** An order.fulfilled of the user's company in the sandbox, as the order path writes it. */
async function orderFulfilled(user: ConsoleUser): Promise<string> {
  const [eventId] = await t.ctx.db.transaction().execute((trx) =>
    emit(t.ctx, trx, [{ companyId: user.seller.company.id, environment: 'sandbox' }], 'order.fulfilled', {
      orderReference: 'shop-order-1',
      skuCode: 'SANDBOX-ALWAYS-001',
      quantity: 1,
      pulled: 1,
      fulfilledAt: new Date(t.ctx.clock.now()).toISOString(),
    }),
  );
  return eventId!;
}

async function endpoint(user: ConsoleUser, url: string): Promise<string> {
  const created = await consoleCall(t, user, 'POST', '/webhooks', { url, eventTypes: ['order.fulfilled'] });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

describe('console delivery log per event', () => {
  it("shows one event's envelope and its deliveries to every endpoint, and resends to one", async () => {
    const failing = await receivers((res) => res.writeHead(500).end());
    const working = await receivers((res) => res.writeHead(204).end());
    const dev = await consoleUser(t, 'developer');
    const failingId = await endpoint(dev, failing.url);
    const workingId = await endpoint(dev, working.url);
    const eventId = await orderFulfilled(dev);
    await deliverAll(t);
    const laterId = await endpoint(dev, `${working.url}/later`);

    const view = await consoleCall(t, dev, 'GET', `/webhooks/events/${eventId}`);
    expect(view.status).toBe(200);
    const data = view.body.data;
    // The envelope is what every endpoint received, field for field.
    expect(data.envelope).toEqual(working.received[0]!.json);
    expect(data).toMatchObject({ eventId, eventType: 'order.fulfilled' });
    expect(view.raw).not.toMatch(/service_sk_|whsec_/);
    const byId = Object.fromEntries(data.endpoints.map((e: { endpointId: string }) => [e.endpointId, e]));
    expect(Object.keys(byId).sort()).toEqual([failingId, workingId, laterId].sort());
    expect(byId[failingId]).toMatchObject({
      url: failing.url,
      deliveries: [{ status: 'pending', attempts: [{ attempt: 1, statusCode: 500, eventId }] }],
    });
    expect(byId[failingId].deliveries[0].nextAttemptAt).toEqual(
      byId[failingId].deliveries[0].attempts[0].nextRetryAt,
    );
    expect(byId[failingId].deliveries[0].nextAttemptAt).not.toBeNull();
    expect(byId[workingId]).toMatchObject({
      url: working.url,
      deliveries: [{ status: 'succeeded', nextAttemptAt: null, attempts: [{ attempt: 1, statusCode: 204 }] }],
    });
    expect(byId[workingId].deliveries[0].attempts[0].durationMs).toEqual(expect.any(Number));
    expect(byId[laterId].deliveries).toEqual([]);

    const resent = await consoleCall(t, dev, 'POST', `/webhooks/${laterId}/resend`, { eventId });
    expect(resent.status).toBe(201);
    await deliverAll(t);
    const after = (await consoleCall(t, dev, 'GET', `/webhooks/events/${eventId}`)).body.data;
    const later = after.endpoints.find((e: { endpointId: string }) => e.endpointId === laterId);
    expect(later.deliveries).toMatchObject([{ status: 'succeeded', attempts: [{ statusCode: 204 }] }]);
    expect(working.received.map((r) => r.json.eventId)).toEqual([eventId, eventId]);
  });

  it('lets every role read it, and answers 404 for another company, another environment or no such event', async () => {
    const owner = await consoleUser(t, 'owner');
    const viewer = await consoleUser(t, 'viewer', owner.seller);
    const stranger = await consoleUser(t, 'owner');
    await endpoint(owner, 'https://hooks.example.com/a');
    const eventId = await orderFulfilled(owner);
    await deliverAll(t);
    expect((await consoleCall(t, viewer, 'GET', `/webhooks/events/${eventId}`)).status).toBe(200);
    expectApiError(await consoleCall(t, stranger, 'GET', `/webhooks/events/${eventId}`), 404, 'NOT_FOUND');
    expectApiError(await consoleCall(t, owner, 'GET', '/webhooks/events/evt_unknown'), 404, 'NOT_FOUND');
    const switched = await consoleCall(t, viewer, 'PUT', '/environment', { environment: 'production' });
    expect(switched.status).toBe(200);
    expectApiError(await consoleCall(t, viewer, 'GET', `/webhooks/events/${eventId}`), 404, 'NOT_FOUND');
  });
});
