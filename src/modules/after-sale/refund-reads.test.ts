import { describe, expect, it } from 'vitest';
import { LENIENT_POLICY, order, refund, saleLinesOf, setPolicy } from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../test/production.js';
import { call } from '../../../test/route-contract.js';

const t = useTestApp();

describe('GET /refunds', () => {
  it('pages newest first and filters by orderReference and type', async () => {
    const seller = await makeSeller(t);
    const a = await order(t, seller, { quantity: 2 });
    const b = await order(t, seller);
    await setPolicy(t, a.allocationId, LENIENT_POLICY);
    const r1 = await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: [a.keyIds[0]] });
    const r2 = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: [a.keyIds[1]],
    });
    const r3 = await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: b.keyIds });
    const get = (q: string) =>
      call(t, { method: 'GET', url: `/api/seller/v1/refunds${q}`, headers: seller.auth });
    const first = await get('?limit=2');
    expect(first.body.data.map((r: { refundId: string }) => r.refundId)).toEqual([
      r3.body.data.refundId,
      r2.body.data.refundId,
    ]);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await get(`?limit=2&cursor=${first.body.meta.nextCursor}`);
    expect(second.body.data.map((r: { refundId: string }) => r.refundId)).toEqual([r1.body.data.refundId]);
    const byOrder = await get(`?orderReference=${a.orderReference}&type=refund`);
    expect(byOrder.body.data.map((r: { refundId: string }) => r.refundId)).toEqual([r1.body.data.refundId]);
    const other = await makeSeller(t);
    const none = await call(t, { method: 'GET', url: '/api/seller/v1/refunds', headers: other.auth });
    expect(none.body.data).toEqual([]);
  });
});

describe('POST /refunds in production', () => {
  it('scopes references and reads to the company, with the wholesale reversed in its currency', async () => {
    const s = await productionScenario(t, { keyCount: 3 });
    await setPolicy(t, s.allocationId, LENIENT_POLICY);
    const as = (auth: Record<string, string>, path: string, payload: Record<string, unknown>) =>
      call(t, { method: 'POST', url: `/api/seller/v1${path}`, headers: auth, payload });
    const placed = await as(s.seller.auth, '/orders', productionOrder(s, { quantity: 2 }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const reference = ref('rf');
    const body = { type: 'refund', refundReference: reference, keyIds: placed.body.data.keyIds };
    const done = await as(s.seller.auth, '/refunds', body);
    expect(done.body.data.amounts).toEqual([
      { currencyCode: 'USD', grossCents: 2 * 5999, wholesaleCents: 2 * 3000 },
    ]);
    const other = await makeKey(t, s.sellerId, { environment: 'production' });
    const auth = { ...other.auth, 'x-forwarded-for': '8.8.8.8' };
    const replay = await as(auth, '/refunds', body);
    expect(replay.body.data.refundId).toBe(done.body.data.refundId);
    const seen = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/refunds/${done.body.data.refundId}`,
      headers: auth,
    });
    expect(seen.status).toBe(200);
    const [sale, reversal] = await saleLinesOf(t, placed.body.data.orderId);
    expect([sale!.wholesale_cents, reversal!.wholesale_cents]).toEqual([6000, -6000]);
  });
});
