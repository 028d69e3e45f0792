import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { deliverAll, startReceiver } from '../../../test/webhook-receiver.js';

// SDAPI_ALLOW_INSECURE_WEBHOOKS off, as in production.
const t = useTestApp({ allowInsecureWebhooks: false });

describe('webhook URL rules without the insecure flag', () => {
  it('refuses http and loopback at creation', async () => {
    const seller = await makeSeller(t);
    for (const target of ['http://hooks.example.com/', 'https://127.0.0.1/', 'https://localhost/']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/webhooks',
        headers: seller.auth,
        payload: { url: target },
      });
      expect(res.statusCode, target).toBe(422);
      expect(res.json().details.issues[0].field).toBe('url');
    }
  });

  it('never connects when the name resolves to loopback at delivery (DNS rebinding)', async () => {
    const seller = await makeSeller(t);
    const receiver = await startReceiver();
    try {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/webhooks',
        headers: seller.auth,
        payload: { url: 'https://hooks.example.com/in' },
      });
      const id = created.json().data.id as string;
      // The name passed at creation; now it answers 127.0.0.1 (rebinding): `localhost` stands in for it.
      await t.ctx.db
        .updateTable('webhook_endpoints')
        .set({ url: `https://localhost:${receiver.port}/hook` })
        .where('id', '=', id)
        .execute();
      await t.app.inject({ method: 'POST', url: `/api/seller/v1/webhooks/${id}/test`, headers: seller.auth });
      await deliverAll(t);
      expect(receiver.received).toHaveLength(0);
      const log = await t.app.inject({
        method: 'GET',
        url: `/api/seller/v1/webhooks/${id}/deliveries`,
        headers: seller.auth,
      });
      expect(log.json().data[0]).toMatchObject({ attempt: 1, statusCode: null });
      expect(log.json().data[0].error).toMatch(/refused: localhost resolves only to disallowed addresses/);
    } finally {
      await receiver.close();
    }
  });
});
