import { describe, expect, it } from 'vitest';
import { admin } from '../../../test/admin.js';
import {
  activityOf,
  afterSaleFootprint,
  allocationRow,
  keyStates,
  LENIENT_POLICY,
  order,
  refund,
  setPolicy,
} from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { ADMIN_TOKEN, useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

describe('POST /refunds: the refund policy', () => {
  it('refunds a revealed key of a sandbox magic SKU under the platform policy', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    expect(placed.keys).toHaveLength(1);
    const result = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data).toMatchObject({ adjustmentType: 'refund', amounts: [{ grossCents: 1999 }] });
    expect(await keyStates(t, placed.keyIds)).toEqual({ [placed.keyIds[0]!]: 'quarantined' });
  });

  it('refuses revealed keys when the grant requires unrevealed ones, but accepts a chargeback of them', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    await setPolicy(t, placed.allocationId, { requiresUnrevealedOrUnredeemed: true });
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
      policy: { source: 'publisher', refundableWithinDays: 14, requiresUnrevealedOrUnredeemed: true },
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

  it('refuses a refund after the platform window of 14 days', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    await admin(t, 'POST', '/clock', { advanceSeconds: 14 * 86400 + 60 }, 200);
    const late = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    expectApiError(late, 422, 'REFUND_NOT_ALLOWED');
    expect(late.body.details.keys[0]).toMatchObject({
      reason: 'refund_window_elapsed',
      policy: { source: 'platform', refundableWithinDays: 14 },
    });
  });

  it('takes the refundPolicy body as typed fields only, and shows the effective policy on the grant', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    for (const refundPolicy of [
      { refundableWithinDays: 7, chargebacksQuarantineKeys: false },
      { refundableWithinDays: '7' },
      { refundableWithinDays: -1 },
      { source: 'platform' },
    ]) {
      const refused = await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/allocations/${placed.allocationId}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { refundPolicy },
      });
      expectApiError({ status: refused.statusCode, body: refused.json() }, 422, 'VALIDATION_FAILED');
    }
    expect((await allocationRow(t, placed.allocationId)).refund_policy).toBeNull();
    await setPolicy(t, placed.allocationId, { refundableWithinDays: 7 });
    const granted = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/allocations',
      headers: seller.auth,
    });
    const grant = granted.body.data.find((a: { id: string }) => a.id === placed.allocationId);
    expect(grant.refundPolicy).toEqual({
      source: 'publisher',
      refundableWithinDays: 7,
      requiresUnrevealedOrUnredeemed: false,
      chargebacksQuarantineKeys: true,
    });
    await setPolicy(t, placed.allocationId, null);
    const reset = await call(t, { method: 'GET', url: '/api/seller/v1/allocations', headers: seller.auth });
    expect(reset.body.data.find((a: { id: string }) => a.id === placed.allocationId).refundPolicy).toEqual({
      source: 'platform',
      refundableWithinDays: 14,
      requiresUnrevealedOrUnredeemed: false,
      chargebacksQuarantineKeys: true,
    });
    const whoami = await call(t, { method: 'GET', url: '/api/seller/v1/whoami', headers: seller.auth });
    expect(whoami.body.data.refundPolicy).toEqual({
      source: 'platform',
      refundableWithinDays: 14,
      requiresUnrevealedOrUnredeemed: false,
      chargebacksQuarantineKeys: true,
    });
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
