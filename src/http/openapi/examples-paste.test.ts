import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { examplesOf } from './examples.js';

const t = useTestApp();

/** The request samples of /docs that name a SKU, with the route they are sent to. */
const PASTED: [operationId: string, path: string][] = [
  ['createOrder', '/orders'],
  ['previewOrder', '/orders/preview'],
  ['createCheckoutHold', '/orders/hold'],
  ['reserveOrder', '/orders/reserve'],
  ['pullKeys', '/keys/pull'],
  ['createBulkOrder', '/orders/bulk'],
];

describe('the request samples of /docs work when pasted with a sandbox key', () => {
  it('name only sandbox magic SKUs', () => {
    const named = Object.entries(examplesOf('seller'))
      .map(
        ([id, example]) => [id, JSON.stringify(example.request ?? {}).match(/"skuCode":"([^"]+)"/g)] as const,
      )
      .filter(([, skus]) => skus)
      .flatMap(([id, skus]) => (skus ?? []).map((sku) => `${id} ${sku}`));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((line) => !line.includes('"SANDBOX-'))).toEqual([]);
  });

  it.each(PASTED)('%s answers its recorded status for a new sandbox seller', async (operationId, path) => {
    const example = examplesOf('seller')[operationId];
    expect(example?.request).toBeDefined();
    const seller = await makeSeller(t);
    await admin(t, 'PATCH', `/companies/${seller.company.id}`, { checkoutHoldEnabled: true });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/seller/v1${path}`,
      headers: { ...seller.auth, 'idempotency-key': `pasted-${operationId}` },
      payload: example?.request as Record<string, unknown>,
    });
    expect(response.statusCode, response.body).toBe(example?.status);
  });
});
