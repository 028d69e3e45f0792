import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { companyEvent, deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import { emit } from '../events/outbox.service.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();

const seller = (s: TestSeller, method: 'GET' | 'POST', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/seller/v1${path}`,
    headers: s.auth,
    ...(payload ? { payload } : {}),
  });
const deliveries = async (companyId: string, status = '') =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/admin/v1/webhooks/deliveries?companyId=${companyId}${status ? `&status=${status}` : ''}`,
      headers: adminHeaders,
    })
  ).json().data as { eventId: string; status: string; attempts: number }[];

const realEvent = (s: TestSeller) => companyEvent(t, s.company.id);

describe('circuit breaker under concurrent sends', () => {
  it('reports exactly 10 failures when 13 fail at once, and holds what waits for the endpoint', async () => {
    const s = await makeSeller(t);
    // Answers nothing until all 13 sends have arrived, then 503 to all of them at once: their
    // results are recorded together, so the run jumps from 0 past 10 in one step.
    const waiting: ServerResponse[] = [];
    let healthy = false;
    const failing = await receiver((res) => {
      if (healthy) return void res.writeHead(200).end();
      waiting.push(res);
      if (waiting.length === 13) for (const r of waiting.splice(0)) r.writeHead(503).end();
    });
    const other = await receiver();
    const bad = (await seller(s, 'POST', '/webhooks', { url: failing.url })).json().data.id as string;
    await seller(s, 'POST', '/webhooks', {
      url: other.url,
      eventTypes: ['system.webhook_endpoint_disabled'],
    });
    for (let i = 0; i < 13; i++) await realEvent(s);
    await deliverAll(t, { total: 128, perEndpoint: 32 });

    expect(failing.received).toHaveLength(13);
    const notices = other.ofType('system.webhook_endpoint_disabled');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.json.data).toMatchObject({ endpointId: bad, consecutiveFailures: 10 });
    expect(notices[0]!.json.data.reason).toBe('10 consecutive failed deliveries; last: HTTP 503');
    const endpoint = (await seller(s, 'GET', '/webhooks'))
      .json()
      .data.find((e: { id: string }) => e.id === bad);
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: notices[0]!.json.data.reason });

    // The 13 retries and a new event wait `held` (nothing sent) until enable.
    const later = await realEvent(s);
    await deliverAll(t);
    const held = await deliveries(s.company.id, 'held');
    expect(held).toHaveLength(14);
    expect(held.map((d) => d.eventId)).toContain(later);
    expect(await deliveries(s.company.id, 'pending')).toEqual([]);
    expect(failing.received).toHaveLength(13);

    healthy = true;
    await seller(s, 'POST', `/webhooks/${bad}/enable`);
    expect(await deliveries(s.company.id, 'held')).toEqual([]);
    await deliverAll(t);
    expect(failing.received).toHaveLength(27);
    expect(await deliveries(s.company.id)).toEqual([]);
  });
});
