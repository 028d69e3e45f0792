import { describe, expect, it } from 'vitest';
import { admin, adminHeaders } from '../../../test/admin.js';
import { activityOf, keyStates, order, refund, saleLinesOf } from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { statementBuckets } from '../finance/totals.js';
import { SANDBOX_PUBLISHER_ID } from '../sandbox/fixtures.js';

const t = useTestApp();

const reinstate = (refundId: string) =>
  call(t, { method: 'POST', url: `/admin/v1/refunds/${refundId}/reinstate`, headers: adminHeaders });

describe('operator: quarantined keys and chargeback reinstatement', () => {
  it('lists quarantined keys per publisher with why and when, newest first, paged', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 3 });
    const reference = ref('cb');
    const charged = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: reference,
      keyIds: placed.keyIds,
      reason: 'fraud',
    });
    const first = await call(t, {
      method: 'GET',
      url: `/admin/v1/keys/quarantined?publisherCompanyId=${SANDBOX_PUBLISHER_ID}&limit=2`,
      headers: adminHeaders,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toMatchObject({
      publisherCompanyId: SANDBOX_PUBLISHER_ID,
      sellerCompanyId: seller.company.id,
      skuCode: 'SANDBOX-ALWAYS-001',
      orderReference: placed.orderReference,
      cause: 'chargeback',
      reason: 'fraud',
      refundId: charged.body.data.refundId,
      quarantinedAt: charged.body.data.createdAt,
    });
    expect(first.body.meta.hasMore).toBe(true);
    const other = await admin(
      t,
      'GET',
      '/keys/quarantined?publisherCompanyId=00000000-0000-7000-8000-000000000000',
    );
    expect(other).toEqual([]);
  });

  it('reinstates a chargeback once: sale rows again, reinstatedCents, keys sold again', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 2 });
    const charged = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: placed.keyIds,
    });
    const result = await reinstate(charged.body.data.refundId);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data).toMatchObject({
      refundId: charged.body.data.refundId,
      reinstatedAt: expect.any(String),
      reinstated: [{ currencyCode: 'USD', reinstatedCents: 3998 }],
    });
    const [sale, reversal, reinstated] = await saleLinesOf(t, placed.orderId);
    expect(reversal!.sale_price_cents).toBe(-3998);
    expect(reinstated).toMatchObject({
      entry_type: 'sale',
      reverses_transaction_id: reversal!.id,
      quantity: 2,
      sale_price_cents: 3998,
      wholesale_cents: 2000,
    });
    expect(sale!.reverses_transaction_id).toBeNull();
    expect((await activityOf(t, placed.orderId)).map((a) => [a.kind, a.sign])).toEqual([
      ['sale', 1],
      ['chargeback', -1],
      ['sale', 1],
    ]);
    expect(Object.values(await keyStates(t, placed.keyIds))).toEqual(['sold', 'sold']);
    expect(await statementBuckets(t.ctx.db, { sellerId: seller.company.id, environment: 'sandbox' })).toEqual(
      [
        {
          currencyCode: 'USD',
          grossSalesCents: 3998,
          refundedCents: 3998,
          reinstatedCents: 3998,
          netSalesCents: 3998,
        },
      ],
    );
    const quarantined = await admin(t, 'GET', `/keys/quarantined?publisherCompanyId=${SANDBOX_PUBLISHER_ID}`);
    expect(quarantined.map((k: { keyId: string }) => k.keyId)).not.toContain(placed.keyIds[0]);
    const read = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/refunds/${charged.body.data.refundId}`,
      headers: seller.auth,
    });
    expect(read.body.data.reinstatedAt).toBe(result.body.data.reinstatedAt);

    const again = await reinstate(charged.body.data.refundId);
    expect(again.status).toBe(422);
    expect(again.body.details.reason).toBe('already_reinstated');
    expect(await saleLinesOf(t, placed.orderId)).toHaveLength(3);
    // A reinstated key was reversed once already: it is not refunded a second time.
    const twice = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: placed.keyIds,
    });
    expectApiError(twice, 422, 'VALIDATION_FAILED');
  });

  it('refuses to reinstate a refund, and answers 404 for an unknown adjustment', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { immediateFulfilment: false });
    const refunded = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    const result = await reinstate(refunded.body.data.refundId);
    expect(result.status).toBe(422);
    expect(result.body.details.reason).toBe('not_a_chargeback');
    expect(await saleLinesOf(t, placed.orderId)).toHaveLength(2);
    expect((await reinstate('no-such-refund')).status).toBe(404);
  });
});
