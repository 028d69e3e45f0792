import { describe, expect, it } from 'vitest';
import { disableEndpoint } from '../../src/modules/webhooks/endpoints.repo.js';
import { adminHeaders } from '../admin.js';
import { makeSeller } from '../factories.js';
import { useTestApp } from '../harness.js';
import { deliverAll, useReceivers } from '../webhook-receiver.js';
import { sampleOf, scrapeMetrics } from './prometheus.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();

async function advanceSeconds(seconds: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/clock',
    headers: adminHeaders,
    payload: { advanceSeconds: seconds },
  });
  expect(res.statusCode).toBe(200);
}

/** The webhook series of one scrape. */
async function webhookSeries() {
  const f = await scrapeMetrics(t);
  return {
    delivered: sampleOf(f, 'sdapi_webhook_deliveries_total', { outcome: 'delivered' }),
    retry: sampleOf(f, 'sdapi_webhook_deliveries_total', { outcome: 'retry' }),
    due: sampleOf(f, 'sdapi_webhook_queue_depth', { state: 'due' }),
    scheduled: sampleOf(f, 'sdapi_webhook_queue_depth', { state: 'scheduled' }),
    held: sampleOf(f, 'sdapi_webhook_queue_depth', { state: 'held' }),
    publishLag: sampleOf(f, 'sdapi_outbox_lag_seconds', { stage: 'publish' }),
    deliverLag: sampleOf(f, 'sdapi_outbox_lag_seconds', { stage: 'deliver' }),
  };
}

describe('webhook metrics on GET /metrics', () => {
  it('move with deliveries by outcome, the queue by state, and the outbox lag by stage', async () => {
    const seller = await makeSeller(t);
    let answer = 204;
    const r = await receiver((res) => res.writeHead(answer).end());
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/seller/v1/webhooks',
      headers: seller.auth,
      payload: { url: r.url },
    });
    const endpointId = created.json().data.id as string;
    const ping = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/seller/v1/webhooks/${endpointId}/test`,
        headers: seller.auth,
      });
    await deliverAll(t);
    const start = await webhookSeries();
    expect(start).toMatchObject({ due: 0, scheduled: 0, held: 0, publishLag: 0, deliverLag: 0 });

    // Committed, not yet published: the publish lag grows on the service clock.
    await ping();
    await advanceSeconds(60);
    expect((await webhookSeries()).publishLag).toBeGreaterThanOrEqual(60);

    await deliverAll(t);
    let now = await webhookSeries();
    expect(now).toMatchObject({ delivered: start.delivered + 1, publishLag: 0, deliverLag: 0 });

    // A failed attempt: a retry scheduled, then due and waiting.
    answer = 500;
    await ping();
    await deliverAll(t);
    now = await webhookSeries();
    expect(now).toMatchObject({ retry: start.retry + 1, scheduled: 1, due: 0, deliverLag: 0 });
    await advanceSeconds(60);
    now = await webhookSeries();
    expect(now).toMatchObject({ scheduled: 0, due: 1 });
    expect(now.deliverLag).toBeGreaterThanOrEqual(50);

    // The endpoint disabled: the delivery is held, no longer due.
    await disableEndpoint(t.ctx.db, endpointId, 'test', t.ctx.clock.now());
    now = await webhookSeries();
    expect(now).toMatchObject({ held: 1, due: 0, deliverLag: 0 });
  });
});
