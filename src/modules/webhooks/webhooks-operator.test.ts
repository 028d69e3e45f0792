import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { deliverAll, startReceiver } from '../../../test/webhook-receiver.js';

const t = useTestApp({ allowInsecureWebhooks: true });

const adminCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: adminHeaders, ...(payload ? { payload } : {}) });

describe('operator view of webhook deliveries', () => {
  it('lists failed and retrying deliveries of a company, and replays one event to one endpoint', async () => {
    const seller = await makeSeller(t);
    let answer = 500;
    const receiver = await startReceiver((res) => res.writeHead(answer).end());
    try {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/webhooks',
        headers: seller.auth,
        payload: { url: receiver.url },
      });
      const endpointId = created.json().data.id as string;
      const test = await t.app.inject({
        method: 'POST',
        url: `/api/seller/v1/webhooks/${endpointId}/test`,
        headers: seller.auth,
      });
      const eventId = test.json().data.eventId as string;
      await deliverAll(t);

      const stuck = await adminCall('GET', `/webhooks/deliveries?companyId=${seller.company.id}`);
      expect(stuck.statusCode).toBe(200);
      expect(stuck.json().data).toHaveLength(1);
      expect(stuck.json().data[0]).toMatchObject({
        endpointId,
        eventId,
        eventType: 'test.ping',
        status: 'pending',
        attempts: 1,
        lastStatusCode: 500,
      });
      expect(stuck.json().data[0].nextAttemptAt).not.toBeNull();
      const other = await makeSeller(t);
      expect(
        (await adminCall('GET', `/webhooks/deliveries?companyId=${other.company.id}`)).json().data,
      ).toEqual([]);

      answer = 200;
      const replay = await adminCall('POST', '/webhooks/replay', { eventId, endpointId });
      expect(replay.statusCode).toBe(201);
      expect(replay.json().data).toMatchObject({ eventId, endpointId, status: 'pending' });
      await deliverAll(t);
      expect(receiver.received.map((r) => r.json.eventId)).toEqual([eventId, eventId]);
      const succeeded = await adminCall(
        'GET',
        `/webhooks/deliveries?companyId=${seller.company.id}&status=succeeded`,
      );
      expect(succeeded.json().data.map((d: { id: string }) => d.id)).toEqual([replay.json().data.deliveryId]);

      expect(
        (await adminCall('POST', '/webhooks/replay', { eventId: 'evt_nope', endpointId })).statusCode,
      ).toBe(404);
      const foreign = await t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/webhooks',
        headers: other.auth,
        payload: { url: receiver.url },
      });
      const cross = await adminCall('POST', '/webhooks/replay', {
        eventId,
        endpointId: foreign.json().data.id,
      });
      expect(cross.statusCode).toBe(422);
    } finally {
      await receiver.close();
    }
  });
});
