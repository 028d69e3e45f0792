import { describe, expect, it } from 'vitest';
import { eventsFor } from '../../../test/admin.js';
import {
  activityOf,
  afterSaleFootprint,
  allocationRow,
  keyStates,
  order,
  refund,
  saleLinesOf,
  setPolicy,
} from '../../../test/after-sale.js';
import { post, ref } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

const giveBack = (seller: TestSeller, keyIds: string[], headers: Record<string, string> = {}) =>
  post(t, seller, '/keys/return', { keyIds, reason: 'buyer cancelled' }, headers);

const availableIn = async (poolId: string) =>
  (
    await t.ctx.db
      .selectFrom('game_keys')
      .select('id')
      .where('pool_id', '=', poolId)
      .where('state', '=', 'available')
      .execute()
  ).length;

const poolOf = async (keyId: string) =>
  (await t.ctx.db.selectFrom('game_keys').select('pool_id').where('id', '=', keyId).executeTakeFirstOrThrow())
    .pool_id;

describeRouteContract('POST /keys/return', t, {
  method: 'POST',
  url: () => '/api/seller/v1/keys/return',
  body: { keyIds: ['k'], reason: 'r' },
  scopes: ['seller:keys:pull'],
  badInput: { body: { keyIds: ['k'] } },
});

describe('POST /keys/return', () => {
  it('puts never-revealed keys back in stock, gives the capacity back and reverses their sale', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, {
      skuCode: 'SANDBOX-STD-001',
      quantity: 3,
      immediateFulfilment: false,
    });
    const pool = await poolOf(placed.keyIds[0]!);
    const stockBefore = await availableIn(pool);
    const pulledBefore = (await allocationRow(t, placed.allocationId)).quantity_pulled;
    const returned = placed.keyIds.slice(0, 2);
    const result = await giveBack(seller, returned);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data).toMatchObject({
      returned: 2,
      reason: 'buyer cancelled',
      orders: [{ orderReference: placed.orderReference, restocked: [...returned].sort(), quarantined: [] }],
      refund: {
        adjustmentType: 'refund',
        source: 'return',
        amounts: [{ currencyCode: 'USD', grossCents: 3998 }],
      },
    });
    const stored = await t.ctx.db.selectFrom('game_keys').selectAll().where('id', 'in', returned).execute();
    expect(stored.every((k) => k.state === 'available' && k.order_id === null && k.sold_at === null)).toBe(
      true,
    );
    expect(await availableIn(pool)).toBe(stockBefore + 2);
    expect((await allocationRow(t, placed.allocationId)).quantity_pulled).toBe(pulledBefore - 2);
    const [sale, reversal] = await saleLinesOf(t, placed.orderId);
    expect(reversal).toMatchObject({
      reverses_transaction_id: sale!.id,
      quantity: -2,
      sale_price_cents: -3998,
    });
    expect((await activityOf(t, placed.orderId)).map((a) => a.kind)).toEqual(['sale', 'refund']);
    const keysReturned = await eventsFor(t, seller.company.id, 'order.keys_returned');
    expect(keysReturned.map((e) => e.data)).toEqual([
      {
        orderReference: placed.orderReference,
        keyIds: [...returned].sort(),
        returned: 2,
        reason: 'buyer cancelled',
      },
    ]);
    const completed = await eventsFor(t, seller.company.id, 'refund.completed');
    expect(completed.map((e) => e.data.refundId)).toEqual([result.body.data.refund.refundId]);
    // The restocked keys are sold again to the next order.
    const next = await order(t, seller, { skuCode: 'SANDBOX-STD-001', quantity: 25 - 3 + 2 });
    expect(next.keyIds).toEqual(expect.arrayContaining(returned));
  });

  it('quarantines a revealed key; no money moves when the policy refuses a refund', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    await setPolicy(t, placed.allocationId, { requiresUnrevealedOrUnredeemed: true });
    const pulledBefore = (await allocationRow(t, placed.allocationId)).quantity_pulled;
    const result = await giveBack(seller, placed.keyIds);
    expect(result.status).toBe(200);
    expect(result.body.data.refund).toBeNull();
    expect(result.body.data.orders[0].quarantined).toEqual(placed.keyIds);
    expect(await keyStates(t, placed.keyIds)).toEqual({ [placed.keyIds[0]!]: 'quarantined' });
    expect(await saleLinesOf(t, placed.orderId)).toHaveLength(1);
    expect(await eventsFor(t, seller.company.id, 'refund.completed')).toEqual([]);
    expect(await eventsFor(t, seller.company.id, 'order.keys_returned')).toHaveLength(1);
    expect((await allocationRow(t, placed.allocationId)).quantity_pulled).toBe(pulledBefore);
  });

  it('quarantines a revealed key and reverses its sale under the platform policy', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    const result = await giveBack(seller, placed.keyIds);
    expect(result.body.data.refund).toMatchObject({ amounts: [{ grossCents: 1999, wholesaleCents: 1000 }] });
    expect(await keyStates(t, placed.keyIds)).toEqual({ [placed.keyIds[0]!]: 'quarantined' });
    expect((await saleLinesOf(t, placed.orderId)).map((l) => l.sale_price_cents)).toEqual([1999, -1999]);
  });

  it('frees the order reference once every key of the order is back', async () => {
    const seller = await makeSeller(t);
    const body = {
      skuCode: 'SANDBOX-STD-001',
      quantity: 1,
      orderReference: ref(),
      immediateFulfilment: false,
    };
    const placed = await order(t, seller, body);
    await giveBack(seller, placed.keyIds);
    const again = await order(t, seller, body);
    expect(again.orderId).not.toBe(placed.orderId);
  });

  it('refuses keys already refunded or returned and changes nothing, and replays by Idempotency-Key', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller, { quantity: 2, immediateFulfilment: false });
    await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: [placed.keyIds[0]] });
    const headers = { 'idempotency-key': ref('idem') };
    const first = await giveBack(seller, [placed.keyIds[1]!], headers);
    expect(first.status).toBe(200);
    const footprint = await afterSaleFootprint(t, seller.company.id);
    const replay = await giveBack(seller, [placed.keyIds[1]!], headers);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const refused = await giveBack(seller, placed.keyIds);
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.details.keys).toEqual([
      { keyId: placed.keyIds[0], reason: 'already_refunded' },
      { keyId: placed.keyIds[1], reason: 'already_returned' },
    ]);
    const refundAfterReturn = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: [placed.keyIds[0]],
    });
    expectApiError(refundAfterReturn, 422, 'VALIDATION_FAILED');
    expect(await afterSaleFootprint(t, seller.company.id)).toEqual(footprint);
  });
});

describe('sandbox replenished pools after quarantine and return', () => {
  it('keeps SANDBOX-LOWSTOCK-001 pinned at 3 whatever is quarantined or returned', async () => {
    const seller = await makeSeller(t);
    const a = await order(t, seller, { skuCode: 'SANDBOX-LOWSTOCK-001', quantity: 2 });
    const b = await order(t, seller, { skuCode: 'SANDBOX-LOWSTOCK-001', immediateFulfilment: false });
    const charged = await refund(t, seller, {
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: a.keyIds,
    });
    expect(charged.status).toBe(200);
    expect((await giveBack(seller, b.keyIds)).body.data.orders[0].restocked).toEqual(b.keyIds);
    const availability = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/availability?skuCode=SANDBOX-LOWSTOCK-001',
      headers: seller.auth,
    });
    expect(availability.body.data.inventoryAvailable).toBe(3);
    expect(Object.values(await keyStates(t, a.keyIds))).toEqual(['quarantined', 'quarantined']);
    const next = await order(t, seller, { skuCode: 'SANDBOX-LOWSTOCK-001', quantity: 3 });
    expect(next.keyIds).not.toContain(b.keyIds[0]);
  });
});
