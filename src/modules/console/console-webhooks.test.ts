import { describe, expect, it } from 'vitest';
import { CONSOLE_API, consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { deliverAll, useReceivers } from '../../../test/webhook-receiver.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receivers = useReceivers();

const auditActions = async (companyId: string) =>
  (
    await t.ctx.db
      .selectFrom('console_audit')
      .select(['action', 'source'])
      .where('company_id', '=', companyId)
      .orderBy('at')
      .execute()
  ).map((a) => `${a.source}:${a.action}`);

const deliveriesOf = (endpointId: string) =>
  t.ctx.db
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'status'])
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .execute();

describe('console webhooks', () => {
  it('creates, tests, resends and replays through the seller services, auditing endpoint and secret changes', async () => {
    let answer = 500;
    const receiver = await receivers((res) => res.writeHead(answer).end());
    const dev = await consoleUser(t, 'developer');
    const listed = await consoleCall(t, dev, 'GET', '/webhooks');
    expect(listed.status).toBe(200);
    const catalog = listed.body.meta.eventTypes as { type: string; example: { eventType: string } }[];
    expect(catalog.find((c) => c.type === 'order.fulfilled')?.example.eventType).toBe('order.fulfilled');
    expect(catalog.map((c) => c.type)).not.toContain('test.ping');

    const created = await consoleCall(t, dev, 'POST', '/webhooks', {
      url: `${receiver.url}?token=receiver-secret`,
      eventTypes: ['order.fulfilled', 'order.failed'],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const rotated = await consoleCall(t, dev, 'PATCH', `/webhooks/${id}`, { rotateSecret: true });
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);

    const test = await consoleCall(t, dev, 'POST', `/webhooks/${id}/test`);
    expect(test.status).toBe(202);
    const eventId = test.body.data.eventId as string;
    await deliverAll(t);
    const log = await consoleCall(t, dev, 'GET', `/webhooks/${id}/deliveries`);
    expect(log.body.data[0]).toMatchObject({ eventId, attempt: 1, statusCode: 500 });
    expect(log.body.data[0].nextRetryAt).not.toBeNull();

    answer = 204;
    const resent = await consoleCall(t, dev, 'POST', `/webhooks/${id}/resend`, { eventId });
    expect(resent.status).toBe(201);
    await t.ctx.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('event_id', '=', eventId)
      .where('id', '<>', resent.body.data.deliveryId)
      .execute();
    const replayed = await consoleCall(t, dev, 'POST', `/webhooks/${id}/replay`, {
      since: '2020-01-01T00:00:00Z',
    });
    // the resent delivery is still pending: replay leaves the event alone
    expect(replayed.body.data).toMatchObject({ replayed: 0 });
    await deliverAll(t);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(['failed', 'succeeded']);
    expect(receiver.received.map((r) => r.json.eventId)).toEqual([eventId, eventId]);

    expect((await auditActions(dev.seller.company.id)).filter((a) => a.includes('webhook'))).toEqual([
      'console:webhook.created',
      'console:webhook.secret_rotated',
    ]);
    const createdRow = await t.ctx.db
      .selectFrom('console_audit')
      .select('detail')
      .where('company_id', '=', dev.seller.company.id)
      .where('action', '=', 'webhook.created')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(createdRow.detail!).url).toBe(receiver.url);
    expect(createdRow.detail).not.toContain('receiver-secret');
  });

  it('lets a viewer read but not change, refuses a call without the CSRF token, and hides other companies', async () => {
    const owner = await consoleUser(t, 'owner');
    const viewer = await consoleUser(t, 'viewer', owner.seller);
    const stranger = await consoleUser(t, 'developer');
    const id = (
      await consoleCall(t, owner, 'POST', '/webhooks', {
        url: 'https://hooks.example.com/a',
        eventTypes: ['*'],
      })
    ).body.data.id as string;

    expect(
      (await consoleCall(t, viewer, 'GET', '/webhooks')).body.data.map((e: { id: string }) => e.id),
    ).toEqual([id]);
    expectApiError(await consoleCall(t, viewer, 'POST', `/webhooks/${id}/test`), 403, 'FORBIDDEN');
    expectApiError(
      await consoleCall(t, viewer, 'PATCH', `/webhooks/${id}`, { rotateSecret: true }),
      403,
      'FORBIDDEN',
    );
    const noCsrf = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/webhooks/${id}/test`,
      headers: { cookie: owner.cookie },
    });
    expect(noCsrf.status).toBe(403);
    expectApiError(await consoleCall(t, stranger, 'GET', `/webhooks/${id}/deliveries`), 404, 'NOT_FOUND');
    expectApiError(await consoleCall(t, stranger, 'POST', `/webhooks/${id}/enable`), 404, 'NOT_FOUND');
    expectApiError(
      await consoleCall(t, stranger, 'POST', `/webhooks/${id}/replay`, { since: '2020-01-01T00:00:00Z' }),
      404,
      'NOT_FOUND',
    );
    expect(
      await t.ctx.db
        .selectFrom('outbox_events')
        .select('event_id')
        .where('event_type', '=', 'test.ping')
        .where('company_id', '=', owner.seller.company.id)
        .execute(),
    ).toEqual([]);
  });
});
