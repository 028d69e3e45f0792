import { describe, expect, expectTypeOf, it } from 'vitest';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';
import {
  ApiError,
  type ClientOptions,
  createSdapiClient,
  type ErrorCode,
  IDEMPOTENT_OPERATIONS,
} from '../src/index.js';

const service = useSandboxService();

/** A client whose requests are recorded; `firstAttempt` may change the first one sent. */
function recordingClient(options: Partial<ClientOptions> & { firstAttempt?: (r: Request) => void } = {}) {
  const sent: Request[] = [];
  const client = createSdapiClient({
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    retry: { baseDelayMs: 10 },
    ...options,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (sent.length === 0) options.firstAttempt?.(request);
      sent.push(request.clone());
      return fetch(request);
    },
  });
  return { client, sent };
}

const simulateOnce = (value: string) => (r: Request) => r.headers.set('x-service-sandbox-simulate', value);
/** One key sold on the web in the US at the fixture price, declared as production requires. */
const line = (orderReference: string, skuCode = 'SANDBOX-ALWAYS-001') => ({
  skuCode,
  quantity: 1,
  orderReference,
  countryCode: 'US',
  integrationOrderContext: {
    salesCountryCode: 'US',
    currencyCode: 'USD',
    salesTaxRatePercent: 0,
    salesPriceGrossMinor: 1999,
    salesChannel: 'web',
  },
});
const order = (orderReference: string, skuCode?: string) => ({
  ...line(orderReference, skuCode),
  expectedUnitPriceCents: 1999,
});

describe.skipIf(SANDBOX_SERVICE_SKIPPED)('the SDK against a running sandbox service', () => {
  it('places an order with an automatic Idempotency-Key, pinned to a contract date', async () => {
    const { client, sent } = recordingClient({ contractDate: '2026-04-29' });
    const preview = await client.POST('/api/seller/v1/orders/preview', { body: line('sdk-order-1') });
    expect(preview.data.canFulfill).toBe(true);
    const placed = await client.POST('/api/seller/v1/orders', {
      body: { ...line('sdk-order-1'), expectedUnitPriceCents: preview.data.unitPriceCents ?? 0 },
    });
    expect(placed.data.keys).toHaveLength(1);
    const [previewSent, orderSent] = sent;
    expect(orderSent?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(orderSent?.headers.get('idempotency-key')).not.toBe(previewSent?.headers.get('idempotency-key'));
    expect(orderSent?.headers.get('x-service-api-version')).toBe('2026-04-29');

    const raw = await client.raw.GET('/api/seller/v1/whoami');
    expect(raw.response.headers.get('x-service-api-version')).toBe('2026-04-29');
  });

  it('replays a mutation sent again with the same Idempotency-Key', async () => {
    const { client } = recordingClient();
    const init = { body: order('sdk-replay-1'), headers: { 'Idempotency-Key': 'sdk-replay-key-1' } };
    const first = await client.raw.POST('/api/seller/v1/orders', init);
    const again = await client.raw.POST('/api/seller/v1/orders', init);
    expect(first.data?.data.keys).toHaveLength(1);
    expect(again.response.headers.get('idempotency-replayed')).toBe('true');
    expect(again.data?.data.keys).toEqual(first.data?.data.keys);
  });

  it('throws ApiError typed by the code union, with doc_url at its anchor', async () => {
    const { client } = recordingClient();
    const failed = await client
      .POST('/api/seller/v1/orders', { body: order('sdk-nokeys-1', 'SANDBOX-NOKEYS-001') })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    const error = failed as ApiError;
    expectTypeOf(error.code).toEqualTypeOf<ErrorCode>();
    expect(error.status).toBe(409);
    expect(error.code).toBe('NO_AVAILABLE_KEYS');
    expect(error.docUrl).toMatch(/\/docs#error-NO_AVAILABLE_KEYS$/);
    expect(error.requestId).toMatch(/^req_/);
  });

  it('waits out Retry-After on a rate limit and succeeds on the next attempt', async () => {
    const { client, sent } = recordingClient({ firstAttempt: simulateOnce('rate_limit') });
    const started = Date.now();
    const placed = await client.POST('/api/seller/v1/orders', { body: order('sdk-ratelimit-1') });
    expect(placed.data.keys).toHaveLength(1);
    expect(sent).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(sent[1]?.headers.get('idempotency-key')).toBe(sent[0]?.headers.get('idempotency-key'));
  });

  it('retries a mutation whose key is in flight, with the same key', async () => {
    const { client, sent } = recordingClient({ firstAttempt: simulateOnce('idempotency_in_flight') });
    await client.POST('/api/seller/v1/orders', { body: order('sdk-inflight-1') });
    expect(sent).toHaveLength(2);
    expect(sent[1]?.headers.get('idempotency-key')).toBe(sent[0]?.headers.get('idempotency-key'));
  });

  it('retries a read after a server fault, never a call the service does not deduplicate', async () => {
    const read = recordingClient({ firstAttempt: simulateOnce('internal_error') });
    const whoami = await read.client.GET('/api/seller/v1/whoami');
    expect(whoami).toBeTruthy();
    expect(read.sent).toHaveLength(2);

    // Preview accepts no Idempotency-Key: after a 500 it is not sent again, the error is thrown.
    const write = recordingClient({ firstAttempt: simulateOnce('internal_error') });
    const failed = await write.client
      .POST('/api/seller/v1/orders/preview', { body: line('sdk-fault-1') })
      .catch((error: unknown) => error);
    expect((failed as ApiError).code).toBe('INTERNAL_ERROR');
    expect(write.sent).toHaveLength(1);
  });

  it('retries an order after a fault only when the document says the service deduplicates it', async () => {
    // The set comes from the document's Idempotency-Key declarations (npm run sdk:generate).
    const deduplicated = IDEMPOTENT_OPERATIONS.has('POST /api/seller/v1/orders');
    const { client, sent } = recordingClient({ firstAttempt: simulateOnce('internal_error') });
    const outcome = await client
      .POST('/api/seller/v1/orders', { body: order('sdk-fault-order-1') })
      .catch((error: unknown) => error);
    if (deduplicated) {
      expect(outcome).not.toBeInstanceOf(ApiError);
      expect(sent).toHaveLength(2);
      expect(sent[1]?.headers.get('idempotency-key')).toBe(sent[0]?.headers.get('idempotency-key'));
    } else {
      expect((outcome as ApiError).code).toBe('INTERNAL_ERROR');
      expect(sent).toHaveLength(1);
    }
  });

  it('walks a cursor list page by page with an async iterator', async () => {
    const { client, sent } = recordingClient();
    const query = { limit: 100 };
    const onePage = await client.GET('/api/seller/v1/products', { params: { query } });
    const walked = [];
    for await (const product of client.paginate('/api/seller/v1/products', {
      params: { query: { limit: 2 } },
    })) {
      walked.push(product.id);
    }
    expect(onePage.data.length).toBeGreaterThan(2);
    expect(walked).toEqual(onePage.data.map((p) => p.id));
    expect(sent.length).toBeGreaterThanOrEqual(1 + Math.ceil(onePage.data.length / 2));
  });
});
