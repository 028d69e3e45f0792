import { describe, expect, it } from 'vitest';
import { afterSaleFootprint, keyStates, LENIENT_POLICY, order, setPolicy } from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

const refundOf = (keyIds: string[], refundReference = ref('rf')) => ({
  type: 'refund',
  refundReference,
  keyIds,
});

describe("an order's page acts on that order's keys only", () => {
  it("refunds, returns and replacements through order X answer 404 for order Y's keys and change nothing", async () => {
    const owner = await consoleUser(t, 'owner');
    const x = await order(t, owner.seller, { quantity: 2 });
    const y = await order(t, owner.seller, { quantity: 2 });
    await setPolicy(t, x.allocationId, LENIENT_POLICY);
    const before = await afterSaleFootprint(t, owner.seller.company.id);
    const onX = (action: string, body: unknown) =>
      consoleCall(t, owner, 'POST', `/orders/${x.orderId}/${action}`, body);

    for (const [action, body] of [
      ['refunds', refundOf([y.keyIds[0]!])],
      ['refunds', refundOf([x.keyIds[0]!, y.keyIds[0]!])],
      ['refunds', { type: 'chargeback', chargebackReference: ref('cb'), keyIds: [y.keyIds[1]!] }],
      ['returns', { keyIds: [y.keyIds[0]!], reason: 'not this order' }],
      ['returns', { keyIds: [x.keyIds[1]!, y.keyIds[1]!], reason: 'not this order' }],
      ['replacements', { keyId: y.keyIds[0]! }],
      ['refunds', refundOf(['no-such-key'])],
    ] as const) {
      const refused = await onX(action, body);
      expectApiError(refused, 404, 'NOT_FOUND');
      expect(refused.body.details.keyIds, action).not.toContain(x.keyIds[0]);
      expect(refused.raw).not.toContain(y.orderReference);
    }
    expect(await afterSaleFootprint(t, owner.seller.company.id)).toEqual(before);
    expect(Object.values(await keyStates(t, [...x.keyIds, ...y.keyIds]))).toEqual([
      'sold',
      'sold',
      'sold',
      'sold',
    ]);

    // The order's own keys still go through, and a replay must come through the same order.
    const reference = ref('rf');
    const refunded = await onX('refunds', refundOf([x.keyIds[0]!], reference));
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await onX('refunds', refundOf([x.keyIds[0]!], reference))).body.data.refundId).toBe(
      refunded.body.data.refundId,
    );
    const replayElsewhere = await consoleCall(
      t,
      owner,
      'POST',
      `/orders/${y.orderId}/refunds`,
      refundOf([x.keyIds[0]!], reference),
    );
    expectApiError(replayElsewhere, 404, 'NOT_FOUND');
    expect(replayElsewhere.body.details.keyIds).toEqual([x.keyIds[0]]);
  });

  it('a key handed back from X is named as returned there, and once sold to Y it is no longer X’s', async () => {
    const owner = await consoleUser(t, 'owner');
    const x = await order(t, owner.seller, { skuCode: 'SANDBOX-STD-001', immediateFulfilment: false });
    const [key] = x.keyIds as [string];
    const returned = await consoleCall(t, owner, 'POST', `/orders/${x.orderId}/returns`, {
      keyIds: [key],
      reason: 'buyer cancelled',
    });
    expect(returned.body.data.orders[0].restocked, JSON.stringify(returned.body)).toEqual([key]);
    const again = await consoleCall(t, owner, 'POST', `/orders/${x.orderId}/returns`, {
      keyIds: [key],
      reason: 'buyer cancelled',
    });
    expectApiError(again, 422, 'VALIDATION_FAILED');
    expect(again.body.details.keys).toEqual([{ keyId: key, reason: 'already_returned' }]);

    const y = await order(t, owner.seller, { skuCode: 'SANDBOX-STD-001', quantity: 25 });
    expect(y.keyIds).toContain(key);
    await setPolicy(t, y.allocationId, LENIENT_POLICY);
    const before = await afterSaleFootprint(t, owner.seller.company.id);
    const throughX = await consoleCall(t, owner, 'POST', `/orders/${x.orderId}/refunds`, refundOf([key]));
    expectApiError(throughX, 404, 'NOT_FOUND');
    expect(await afterSaleFootprint(t, owner.seller.company.id)).toEqual(before);
    const throughY = await consoleCall(t, owner, 'POST', `/orders/${y.orderId}/refunds`, refundOf([key]));
    expect(throughY.status, JSON.stringify(throughY.body)).toBe(200);
  });
});
