import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdapiClient, verifyWebhook } from '@sdapi/sdk';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';
import { localSecretOf } from '../src/local-secret.js';
import { ALWAYS_SKU, usWebOrder } from '../src/sandbox-sale.js';
import { eventually, Receiver, runCli, spawnCli } from './cli-process.js';

/** One order of the always-available SKU, placed by the test itself. */
async function placeOrder(api: ReturnType<typeof createSdapiClient>, orderReference: string) {
  await api.POST('/api/seller/v1/orders', { body: usWebOrder(ALWAYS_SKU, orderReference, 1999) });
}

/** listen's arguments for order.fulfilled alone, to the receiver, keeping its position in `stateDir`. */
const fulfilledOnly = (receiver: Receiver, stateDir: string) => [
  'listen',
  '--forward-to',
  receiver.url,
  '--events',
  'order.fulfilled',
  '--state-dir',
  stateDir,
];

describe.skipIf(SANDBOX_SERVICE_SKIPPED)('sdapi-seller listen against a running sandbox service', () => {
  const service = useSandboxService();
  const env = () => ({ SDAPI_API_KEY: service.apiKey, SDAPI_BASE_URL: service.baseUrl });
  const api = () => createSdapiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
  /** The order.fulfilled events published since `since`, oldest first, as GET /events lists them. */
  const fulfilledSince = async (since: string) => {
    const ids: string[] = [];
    for await (const e of api().paginate('/api/seller/v1/events', {
      params: { query: { since, types: 'order.fulfilled', limit: 100 } },
    }))
      ids.push(e.eventId);
    return ids;
  };

  it('forwards what `trigger order.fulfilled` caused, signed so that the SDK verifyWebhook accepts it', async () => {
    const receiver = await new Receiver().start();
    const stateDir = mkdtempSync(join(tmpdir(), 'cli-listen-'));
    const listen = spawnCli(['listen', '--forward-to', receiver.url, '--state-dir', stateDir], env());
    try {
      const secret = (await listen.waitFor(/Local signing secret: (whsec_\S+)/))[1]!;
      expect(secret).toBe(localSecretOf(service.apiKey));
      const triggered = await runCli(['trigger', 'order.fulfilled', '--json'], env());
      expect(triggered.code).toBe(0);
      const steps = triggered.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { call: string; requestId: string });
      expect(steps.map((s) => s.call)).toEqual(['POST /orders/preview', 'POST /orders']);
      expect(steps.every((s) => /^req_/.test(s.requestId))).toBe(true);

      await eventually(() => receiver.received.some((r) => r.body.includes('"order.fulfilled"')));
      const delivery = receiver.received.find((r) => r.body.includes('"order.fulfilled"'))!;
      const event = verifyWebhook(delivery.body, delivery.headers as Record<string, string>, secret);
      expect(event.eventType).toBe('order.fulfilled');
      expect(Object.keys(event)).toEqual(['eventId', 'eventType', 'eventVersion', 'createdAt', 'data']);
      expect(delivery.headers['x-service-event-id']).toBe(event.eventId);
      expect(() =>
        verifyWebhook(delivery.body, delivery.headers as Record<string, string>, 'whsec_other'),
      ).toThrow(/no signature matches/);
      await listen.waitFor(new RegExp(`order\\.fulfilled\\s+${event.eventId}\\s+-> 200 in \\d+ ms`));
    } finally {
      listen.child.kill('SIGINT');
      expect(await listen.exited).toBe(0);
      await receiver.stop();
    }
    // The same key prints the same secret on the next start.
    const again = spawnCli(['listen', '--forward-to', receiver.url, '--state-dir', stateDir], env());
    await again.waitFor(
      new RegExp(`Local signing secret: ${localSecretOf(service.apiKey).replace(/[+/=]/g, '\\$&')}`),
    );
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 90_000);

  it('loses nothing while the local handler is down for two seconds: it retries each event until it answers', async () => {
    const receiver = await new Receiver().start();
    const port = receiver.port;
    const since = new Date().toISOString();
    const args = fulfilledOnly(receiver, mkdtempSync(join(tmpdir(), 'cli-down-')));
    const listen = spawnCli(args, env());
    try {
      await listen.waitFor(/Ready\./);
      await receiver.stop();
      const down = Date.now();
      for (let i = 0; i < 3; i++) await placeOrder(api(), `down-${i}-${down}`);
      await eventually(() => /ECONNREFUSED/.test(listen.stderr()), 10_000, 'a retry notice');
      await new Promise((r) => setTimeout(r, Math.max(0, 2_000 - (Date.now() - down))));
      expect(receiver.received).toHaveLength(0);
      await receiver.start(port);
      const expected = await fulfilledSince(since);
      expect(expected).toHaveLength(3);
      await eventually(() => receiver.received.length >= 3, 20_000, 'the three events');
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.eventIds()).toEqual(expected);
    } finally {
      listen.child.kill('SIGINT');
      expect(await listen.exited).toBe(0);
      await receiver.stop();
    }
  }, 90_000);

  it('resumes with --from last after a Ctrl-C: nothing lost, nothing repeated', async () => {
    const receiver = await new Receiver().start();
    const stateDir = mkdtempSync(join(tmpdir(), 'cli-resume-'));
    const args = [...fulfilledOnly(receiver, stateDir), '--from', 'last'];
    const since = new Date().toISOString();
    try {
      const first = spawnCli(args, env());
      await first.waitFor(/Ready\./);
      expect(first.stderr()).toMatch(/No saved position for this key/);
      await placeOrder(api(), `resume-a-${Date.now()}`);
      await placeOrder(api(), `resume-b-${Date.now()}`);
      await eventually(() => receiver.received.length >= 2, 20_000, 'the first two events');
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
      expect(first.stderr()).toMatch(/Stopped after forwarding 2 event\(s\); --from last resumes after evt_/);

      // While nobody listens, two more orders.
      await placeOrder(api(), `resume-c-${Date.now()}`);
      await placeOrder(api(), `resume-d-${Date.now()}`);
      const second = spawnCli(args, env());
      await second.waitFor(/Ready\./);
      expect(second.stderr()).toContain(`Resuming after ${receiver.eventIds()[1]}`);
      await eventually(() => receiver.received.length >= 4, 20_000, 'the two events sent while stopped');
      await new Promise((r) => setTimeout(r, 750));
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);

      const expected = await fulfilledSince(since);
      expect(expected).toHaveLength(4);
      expect(receiver.eventIds()).toEqual(expected);
    } finally {
      await receiver.stop();
    }
  }, 120_000);
});
