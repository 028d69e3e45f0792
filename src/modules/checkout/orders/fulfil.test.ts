import { describe, expect, it } from 'vitest';
import { admin } from '../../../../test/admin.js';
import { alwaysOrder, ordersOf, post, ref } from '../../../../test/checkout.js';
import { makeSeller } from '../../../../test/factories.js';
import { useTestApp } from '../../../../test/harness.js';
import { expectApiError } from '../../../../test/route-contract.js';
import { commitLine, prepareOrder } from './orders.service.js';

const t = useTestApp();

/** A sandbox seller with checkout holds, its sandbox catalog provisioned (by a first request). */
async function holdingSeller() {
  const seller = await makeSeller(t);
  await admin(t, 'PATCH', `/companies/${seller.company.id}`, { checkoutHoldEnabled: true });
  await t.app.inject({
    method: 'GET',
    url: '/api/seller/v1/availability?skuCode=SANDBOX-STD-001',
    headers: seller.auth,
  });
  const actor = { sellerId: seller.company.id, environment: 'sandbox', apiKeyId: seller.keyId };
  const prepare = () =>
    prepareOrder(t.ctx, actor, alwaysOrder({ skuCode: 'SANDBOX-STD-001' }) as never, {
      contractDate: '2026-09-01',
      simulate: null,
      claim: null,
    });
  const hold = async (quantity: number) => {
    const held = await post(
      t,
      seller,
      '/orders/hold',
      { skuCode: 'SANDBOX-STD-001', quantity, countryCode: 'US', orderReference: ref('hold') },
      { 'idempotency-key': ref('idem') },
    );
    expect(held.status, JSON.stringify(held.body)).toBe(200);
  };
  return { seller, prepare, hold };
}

/**
 * The fast path of an order trusts the promises it read before its transaction only while the
 * grant's `promise_version` is unchanged. Here the interleaving is forced (quote, then a hold
 * taking every key, then the commit), so it holds on either engine; the race itself is
 * exercised on PostgreSQL by test/flows/checkout-concurrency.test.ts.
 */
describe('fulfilment after a promise placed since the quote', () => {
  it('refuses an order quoted before a hold took the remaining capacity', async () => {
    const { seller, prepare, hold } = await holdingSeller();
    const prepared = await prepare();
    if (!('request' in prepared)) throw new Error('expected a fresh order');
    expect(prepared.request.quote.allocation.promise_version).toBe(0);

    await hold(25);

    await expect(commitLine(t.ctx, prepared)).rejects.toMatchObject({ code: 'NO_AVAILABLE_KEYS' });
    expect(await ordersOf(t, seller.company.id)).toHaveLength(0);
    const plain = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-STD-001' }));
    expectApiError(plain, 409, 'NO_AVAILABLE_KEYS');
  });

  it('lets the order through when the hold left room, reading the promises again', async () => {
    const { seller, prepare, hold } = await holdingSeller();
    const prepared = await prepare();
    await hold(24);
    const done = await commitLine(t.ctx, prepared);
    expect(done.view.keys).toHaveLength(1);
    const after = await post(t, seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-STD-001' }));
    expectApiError(after, 409, 'NO_AVAILABLE_KEYS');
  });
});
