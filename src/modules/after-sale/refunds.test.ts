import { describe, expect, it } from 'vitest';
import { eventsFor } from '../../../test/admin.js';
import {
  activityOf,
  afterSaleFootprint,
  allocationRow,
  keyStates,
  LENIENT_POLICY,
  order,
  refund,
  saleLinesOf,
  setPolicy,
} from '../../../test/after-sale.js';
import { alwaysOrder, post, ref } from '../../../test/checkout.js';
import { makeKey, makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

describeRouteContract('POST /refunds', t, {
  method: 'POST',
  url: () => '/api/seller/v1/refunds',
  body: { type: 'refund', refundReference: 'r-1', keyIds: ['k'] },
  scopes: ['seller:refunds:write'],
  badInput: { body: { type: 'refund', refundReference: 'r-1', keyIds: [] } },
});

describeRouteContract('GET /refunds/{refundId}', t, {
  method: 'GET',
  url: () => '/api/seller/v1/refunds/00000000-0000-7000-8000-000000000000',
  scopes: ['seller:refunds:read'],
  otherCompanyUrl: async (tt, owner) => {
    const placed = await order(tt, owner);
    await setPolicy(tt, placed.allocationId, LENIENT_POLICY);
    const done = await refund(tt, owner, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    return `/api/seller/v1/refunds/${done.body.data.refundId}`;
  },
});

describe('POST /refunds: validation', () => {
  it('names the field type first when type is missing or wrong', async () => {
    const seller = await makeSeller(t);
    for (const body of [
      { refundReference: 'r', keyIds: [] },
      { type: 'return', refundReference: 'r', keyIds: ['x'] },
    ]) {
      const result = await refund(t, seller, body);
      expectApiError(result, 422, 'VALIDATION_FAILED');
      expect(result.body.details.issues[0].field).toBe('type');
    }
  });

  it('requires the reference matching the type and refuses the other one', async () => {
    const seller = await makeSeller(t);
    const missing = await refund(t, seller, { type: 'chargeback', keyIds: ['x'] });
    expectApiError(missing, 422, 'VALIDATION_FAILED');
    expect(missing.body.details.issues[0].field).toBe('chargebackReference');
    const crossed = await refund(t, seller, { type: 'refund', chargebackReference: 'c', keyIds: ['x'] });
    expect(crossed.body.details.issues[0].field).toBe('chargebackReference');
  });
});

describe('POST /refunds: a refund within the policy', () => {
  it('quarantines the keys, reverses the sale with exact negated integers, records activity and the event', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 3 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const before = await allocationRow(t, placed.allocationId);
    const reference = ref('rf');
    const keyIds = placed.keyIds.slice(0, 2);
    const result = await refund(t, seller, {
      type: 'refund',
      refundReference: reference,
      keyIds,
      reason: 'buyer',
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data).toMatchObject({
      adjustmentType: 'refund',
      adjustmentStatus: 'completed',
      refundReference: reference,
      orderReferences: [placed.orderReference],
      keyIds: [...keyIds].sort(),
      amounts: [{ currencyCode: 'USD', grossCents: 2 * 1999, wholesaleCents: 2 * 1000 }],
    });
    expect(await keyStates(t, placed.keyIds)).toEqual({
      [keyIds[0]!]: 'quarantined',
      [keyIds[1]!]: 'quarantined',
      [placed.keyIds[2]!]: 'sold',
    });
    const [sale, reversal] = await saleLinesOf(t, placed.orderId);
    expect(reversal).toMatchObject({
      entry_type: 'sale_reversal',
      reverses_transaction_id: sale!.id,
      quantity: -2,
      unit_price_cents: 1999,
      sale_price_cents: -3998,
      initial_sale_price_cents: -3998,
      wholesale_cents: -2000,
      currency_code: 'USD',
    });
    expect(sale!.sale_price_cents + reversal!.sale_price_cents).toBe(1999);
    const activity = await activityOf(t, placed.orderId);
    expect(activity.map((a) => [a.kind, a.sign, a.quantity])).toEqual([
      ['sale', 1, 3],
      ['refund', -1, 2],
    ]);
    const events = await eventsFor(t, seller.company.id, 'refund.completed');
    expect(events.map((e) => e.data)).toEqual([
      {
        orderReference: placed.orderReference,
        refundId: result.body.data.refundId,
        adjustmentType: 'refund',
        adjustmentStatus: 'completed',
      },
    ]);
    // Quarantine does not give capacity back: the keys left the pools and never return.
    expect((await allocationRow(t, placed.allocationId)).quantity_pulled).toBe(before.quantity_pulled);
    const read = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/refunds/${result.body.data.refundId}`,
      headers: seller.auth,
    });
    expect(read.body.data).toEqual(result.body.data);
  });

  it('keeps the reference after a partial refund and frees it after a full one', async () => {
    const seller = await makeSeller(t);
    const body = alwaysOrder({ quantity: 2 });
    const placed = await order(t, seller, body);
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: [placed.keyIds[0]] });
    const replay = await post(t, seller, '/orders', body);
    expect(replay.body.data.orderId).toBe(placed.orderId);
    expect(replay.body.data.keyIds).toEqual([placed.keyIds[1]]);
    expect(replay.body.data.refundedKeyIds).toEqual([placed.keyIds[0]]);
    expectApiError(
      await post(t, seller, '/orders', { ...body, quantity: 1 }),
      409,
      'ORDER_REFERENCE_CONFLICT',
    );
    const recovered = await post(t, seller, '/orders/recover-keys', { orderReference: body.orderReference });
    expect(recovered.body.data.keyIds).toEqual([placed.keyIds[1]]);

    await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: [placed.keyIds[1]] });
    const again = await post(t, seller, '/orders', body);
    expect(again.status).toBe(200);
    expect(again.body.data.orderId).not.toBe(placed.orderId);
    expect(again.body.data.keyIds.some((id: string) => placed.keyIds.includes(id))).toBe(false);
    const replayed = await post(t, seller, '/orders', body);
    expect(replayed.body.data.orderId).toBe(again.body.data.orderId);
    const recoveredNew = await post(t, seller, '/orders/recover-keys', {
      orderReference: body.orderReference,
    });
    expect(recoveredNew.body.data.keyIds).toEqual(again.body.data.keyIds);
    const orders = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/orders?orderReference=${body.orderReference}`,
      headers: seller.auth,
    });
    expect(orders.body.data.map((o: { id: string }) => o.id).sort()).toEqual(
      [placed.orderId, again.body.data.orderId].sort(),
    );
  });

  it('replays the same reference with the same keys and refuses it with other keys, changing nothing', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 2 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const reference = ref('rf');
    const first = await refund(t, seller, {
      type: 'refund',
      refundReference: reference,
      keyIds: [placed.keyIds[0]],
    });
    const footprint = await afterSaleFootprint(t, seller.company.id);
    const again = await refund(t, seller, {
      type: 'refund',
      refundReference: reference,
      keyIds: [placed.keyIds[0]],
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const other = await refund(t, seller, {
      type: 'refund',
      refundReference: reference,
      keyIds: [placed.keyIds[1]],
    });
    expectApiError(other, 409, 'REFUND_REFERENCE_CONFLICT');
    expect(other.body.details.refundId).toBe(first.body.data.refundId);
    expect(await afterSaleFootprint(t, seller.company.id)).toEqual(footprint);
    expect(await keyStates(t, [placed.keyIds[1]!])).toEqual({ [placed.keyIds[1]!]: 'sold' });
  });
});

describe('POST /refunds: refusals change nothing', () => {
  it('lists each unknown, foreign, never-delivered or already refunded id with why', async () => {
    const seller = await makeSeller(t);
    const stranger = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 2 });
    const foreign = await order(t, stranger);
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: [placed.keyIds[0]] });
    const stock = await t.ctx.db
      .selectFrom('game_keys')
      .select('id')
      .where('state', '=', 'available')
      .limit(1)
      .executeTakeFirstOrThrow();
    const footprint = await afterSaleFootprint(t, seller.company.id);
    const keyIds = [placed.keyIds[1], 'no-such-key', foreign.keyIds[0], stock.id, placed.keyIds[0]];
    const result = await refund(t, seller, { type: 'chargeback', chargebackReference: ref('cb'), keyIds });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.keys).toEqual([
      { keyId: 'no-such-key', reason: 'unknown' },
      { keyId: foreign.keyIds[0], reason: 'unknown' },
      { keyId: stock.id, reason: 'not_delivered' },
      { keyId: placed.keyIds[0], reason: 'already_refunded' },
    ]);
    expect(await afterSaleFootprint(t, seller.company.id)).toEqual(footprint);
    expect(await keyStates(t, [placed.keyIds[1]!, foreign.keyIds[0]!])).toEqual({
      [placed.keyIds[1]!]: 'sold',
      [foreign.keyIds[0]!]: 'sold',
    });
  });

  it('refuses a key sent twice', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    const result = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [placed.keyIds[0], placed.keyIds[0]],
    });
    expectApiError(result, 422, 'VALIDATION_FAILED');
    expect(result.body.details.issues[0].field).toBe('keyIds[1]');
  });

  it("in sandbox, refuses keys delivered to another API key of the same company and hides that key's refunds", async () => {
    const seller = await makeSeller(t);
    const sibling = { ...(await makeKey(t, seller.company.id)), company: seller.company };
    const placed = await order(t, seller, { quantity: 2 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const theirs = await refund(t, sibling, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [placed.keyIds[0]],
    });
    expectApiError(theirs, 422, 'VALIDATION_FAILED');
    expect(theirs.body.details.keys[0].reason).toBe('unknown');
    const mine = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [placed.keyIds[0]],
    });
    const seen = await call(t, {
      method: 'GET',
      url: `/api/seller/v1/refunds/${mine.body.data.refundId}`,
      headers: sibling.auth,
    });
    expectApiError(seen, 404, 'NOT_FOUND');
  });
});
