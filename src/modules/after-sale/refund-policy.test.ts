import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import {
  activityOf,
  afterSaleFootprint,
  keyStates,
  LENIENT_POLICY,
  order,
  refund,
  setPolicy,
} from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

describe('POST /refunds: the refund policy', () => {
  it('refuses revealed keys under the platform policy but accepts a chargeback of them', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    const footprint = await afterSaleFootprint(t, seller.company.id);
    const refused = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    expectApiError(refused, 422, 'REFUND_NOT_ALLOWED');
    expect(refused.body.details.keys[0]).toMatchObject({
      keyId: placed.keyIds[0],
      reason: 'key_revealed',
      revealed: true,
      policy: { source: 'platform', refundableWithinDays: 14, requiresUnrevealedOrUnredeemed: true },
    });
    expect(await afterSaleFootprint(t, seller.company.id)).toEqual(footprint);
    const charged = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: placed.keyIds,
    });
    expect(charged.status).toBe(200);
    expect(charged.body.data).toMatchObject({
      adjustmentType: 'chargeback',
      amounts: [{ grossCents: 1999 }],
    });
    const activity = await activityOf(t, placed.orderId);
    expect(activity.map((a) => [a.kind, a.sign])).toEqual([
      ['sale', 1],
      ['chargeback', -1],
    ]);
  });

  it('refunds an unrevealed deferred key under the platform policy', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { immediateFulfilment: false });
    const result = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(await keyStates(t, placed.keyIds)).toEqual({ [placed.keyIds[0]!]: 'quarantined' });
  });

  it('refuses a refund after the window and still accepts a chargeback', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    await setPolicy(t, placed.allocationId, { ...LENIENT_POLICY, refundableWithinDays: 2 });
    await admin(t, 'POST', '/clock', { advanceSeconds: 3 * 86400 }, 200);
    const late = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    expectApiError(late, 422, 'REFUND_NOT_ALLOWED');
    expect(late.body.details.keys[0]).toMatchObject({ reason: 'refund_window_elapsed' });
    const charged = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: placed.keyIds,
    });
    expect(charged.status).toBe(200);
  });
});
