import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdapiClient } from '@sdapi/sdk';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';
import { Journal } from './src/journal.js';
import { runStorefront } from './src/storefront.js';

describe.skipIf(SANDBOX_SERVICE_SKIPPED)('the sample storefront, end to end against the sandbox', () => {
  const service = useSandboxService();

  it('browses, holds, charges, orders, hears order.fulfilled and recovers keys after a crash', async () => {
    const journalFile = join(mkdtempSync(join(tmpdir(), 'storefront-test-')), 'journal.json');
    const lines: string[] = [];
    const result = await runStorefront({ ...service, journalFile, log: (line) => lines.push(line) });

    expect(result.sale.keys).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('hold: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('attest: '))).toBe(true);
    expect(result.fulfilled).toMatchObject({
      eventType: 'order.fulfilled',
      data: { orderReference: result.sale.orderReference, quantity: 1, pulled: 1 },
    });

    // The crashed checkout's keys came back through recover-keys, and are the order's own keys.
    expect(result.recovered).toHaveLength(1);
    const [recovered] = result.recovered;
    expect(recovered?.keys).toHaveLength(2);
    const api = createSdapiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const orders = await api.GET('/api/seller/v1/orders', {
      params: { query: { limit: 10, orderReference: recovered!.orderReference } },
    });
    expect(orders.data.map((o) => o.id)).toEqual([recovered?.orderId]);
    expect(orders.data[0]?.pulled).toBe(2);

    // The buyer's page captured the attestation; the order spent it on its reference.
    const attestation = await api.GET('/api/seller/v1/geo-attestations/{attestId}', {
      params: { path: { attestId: result.sale.attestId } },
    });
    expect(attestation.data).toMatchObject({ status: 'spent', orderReference: result.sale.orderReference });

    expect(new Journal(journalFile).pending()).toEqual([]);
    expect(result.payments.map((p) => p.state)).toEqual(['captured', 'captured']);
  });
});
