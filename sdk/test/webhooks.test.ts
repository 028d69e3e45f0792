import { describe, expect, it } from 'vitest';
import { signatureHeaders } from '../../src/modules/webhooks/signing.js';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';
import { useReceivers } from '../../test/webhook-receiver.js';
import { createSdapiClient, verifyWebhook, WebhookVerificationError } from '../src/index.js';

const only = (headers: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => names.includes(name))) as Record<
    string,
    string
  >;
const SERVICE = ['x-service-signature'];
const STANDARD = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

describe('verifyWebhook against the service signing code', () => {
  const secrets = ['whsec_bmV3LXNlY3JldC1uZXctc2VjcmV0LW5ldy1zZWNyZXQ=', 'whsec_b2xkLXNlY3JldA=='];
  const body = '{"eventId":"evt_1","eventType":"test.ping","eventVersion":1,"createdAt":"x","data":{}}';
  const nowMs = 1_763_937_759_000;
  const headers = signatureHeaders(secrets, 'evt_1', nowMs / 1000, body);

  it('accepts either scheme, with any live secret during a rotation', () => {
    for (const names of [SERVICE, STANDARD]) {
      for (const secret of secrets) {
        expect(verifyWebhook(body, only(headers, names), secret, { nowMs }).eventId).toBe('evt_1');
      }
    }
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), [secrets[1]!], { nowMs }).eventType).toBe(
      'test.ping',
    );
  });

  it('refuses another body, another secret, a stale timestamp and a missing signature', () => {
    const refuses = (run: () => unknown, reason: RegExp) =>
      expect(run).toThrow(
        expect.objectContaining({
          name: WebhookVerificationError.name,
          message: expect.stringMatching(reason),
        }),
      );
    for (const names of [SERVICE, STANDARD]) {
      const h = only(headers, names);
      refuses(() => verifyWebhook(body.replace('{}', '{"x":1}'), h, secrets[0]!, { nowMs }), /no signature/);
      refuses(() => verifyWebhook(body, h, 'whsec_b3RoZXI=', { nowMs }), /no signature/);
      refuses(() => verifyWebhook(body, h, secrets[0]!, { nowMs: nowMs + 301_000 }), /tolerance/);
    }
    refuses(() => verifyWebhook(body, {}, secrets[0]!, { nowMs }), /no X-Service-Signature/);
  });
});

describe.skipIf(SANDBOX_SERVICE_SKIPPED)('verifyWebhook on a real delivery', () => {
  const service = useSandboxService();
  const receiver = useReceivers();

  it('verifies a test.ping the service delivered, by both schemes', async () => {
    const client = createSdapiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const hook = await receiver();
    const endpoint = await client.POST('/api/seller/v1/webhooks', {
      body: { url: hook.url, eventTypes: ['test.ping'] },
    });
    await client.POST('/api/seller/v1/webhooks/{id}/test', { params: { path: { id: endpoint.data.id } } });
    await expect.poll(() => hook.received.length, { timeout: 15_000 }).toBe(1);
    const [delivery] = hook.received;
    const secret = endpoint.data.secret;
    for (const names of [SERVICE, STANDARD]) {
      const event = verifyWebhook(delivery!.body, only(delivery!.headers, names), secret);
      expect(event).toMatchObject({
        eventType: 'test.ping',
        data: { ok: true, webhookId: endpoint.data.id },
      });
    }
  });
});
