import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../test/admin.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { useReceivers } from '../../../test/webhook-receiver.js';
import { startProcessJobs } from '../../jobs/process-jobs.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let jobs: ReturnType<typeof startProcessJobs>;
beforeAll(() => {
  jobs = startProcessJobs(t.ctx, { error: () => {} });
});
afterAll(() => jobs.stop());

/** Milliseconds until `check` holds, or Infinity after `limitMs`. */
async function waitFor(check: () => boolean, limitMs: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > limitMs) return Number.POSITIVE_INFINITY;
    await sleep(10);
  }
  return performance.now() - started;
}

/**
 * An endpoint at `receiver` and a test ping to it; resolves once its first attempt arrived. At
 * least one: a prompt retry can arrive within the 10 ms between two looks, after the first.
 */
async function pingOnce(auth: Record<string, string>, receiver: { url: string; received: unknown[] }) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/seller/v1/webhooks',
    headers: auth,
    payload: { url: receiver.url },
  });
  const endpointId = created.json().data.id as string;
  await t.app.inject({ method: 'POST', url: `/api/seller/v1/webhooks/${endpointId}/test`, headers: auth });
  expect(await waitFor(() => receiver.received.length >= 1, 5000)).toBeLessThan(5000);
  return endpointId;
}

describe('webhook retries under the test clock, with the background jobs running', () => {
  // The retry stall: a retry was due 5 s after its failure was *written*, so a clock moved while
  // the failing response was in flight (or before its outcome committed, as a script racing the
  // receiver does) left the retry 5 s of real time after the move instead of due at once.
  it('sends the second attempt promptly after the clock passes its due time, even when it moved while the failure was in flight', async () => {
    const seller = await makeSeller(t);
    let calls = 0;
    const r = await receiver((res) => {
      calls += 1;
      if (calls === 1) t.ctx.testClock!.advance(3600); // the operator's +1 h lands before the outcome is written
      res.writeHead(calls === 1 ? 500 : 200).end();
    });
    const endpointId = await pingOnce(seller.auth, r);
    const attempts = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/seller/v1/webhooks/${endpointId}/deliveries`,
          headers: seller.auth,
        })
      ).json().data as { attempt: number; statusCode: number; nextRetryAt: string | null }[];
    // Stored state, not wall time: the failed attempt's retry fell due an hour ago on the moved
    // clock (the stall had it 5 s after the outcome was written, in the moved clock's future).
    let log = await attempts();
    while (!log.some((a) => a.attempt === 1)) [log] = [await attempts(), await sleep(20)];
    const failed = log.find((a) => a.attempt === 1)!;
    if (failed.nextRetryAt !== null)
      expect(Date.parse(failed.nextRetryAt)).toBeLessThanOrEqual(t.ctx.clock.now());
    // Arrival: the stall held it 5 s of real time; the bound leaves room for a loaded CI machine.
    expect(await waitFor(() => r.received.length === 2, 8000)).toBeLessThan(4500);
    log = await attempts();
    while (log.length < 2) [log] = [await attempts(), await sleep(20)];
    expect(log).toMatchObject([
      { attempt: 2, statusCode: 200, nextRetryAt: null },
      { attempt: 1, statusCode: 500 },
    ]);
  }, 15_000);

  it('sends the second attempt promptly after POST /admin/v1/clock +1 h', async () => {
    const seller = await makeSeller(t);
    let answer = 500;
    const r = await receiver((res) => res.writeHead(answer).end());
    await pingOnce(seller.auth, r);
    answer = 200;
    const moved = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/clock',
      headers: adminHeaders,
      payload: { advanceSeconds: 3600 },
    });
    expect(moved.statusCode).toBe(200);
    expect(await waitFor(() => r.received.length === 2, 8000)).toBeLessThan(3000);
  }, 15_000);
});
