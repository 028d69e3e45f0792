import { describe, expect, it } from 'vitest';
import { allocationRow, order, refund } from '../../../test/after-sale.js';
import { alwaysOrder, ordersOf, post, ref } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import {
  commitBody,
  seller as hotDropHeaders,
  hotDropScenario,
  reserveBody,
} from '../../../test/hot-drop.js';
import { call } from '../../../test/route-contract.js';

const t = useTestApp();

/** A two-key sandbox order, one of its keys refunded; answers what a replay must match. */
async function partlyRefunded(seller: TestSeller, idempotencyKey?: string) {
  const body = alwaysOrder({ quantity: 2 });
  const placed = await post(
    t,
    seller,
    '/orders',
    body,
    idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const { keys, keyIds, orderId } = placed.body.data as { keys: string[]; keyIds: string[]; orderId: string };
  expect(keys).toHaveLength(2);
  const refunded = await refund(t, seller, {
    type: 'refund',
    refundReference: ref('rf'),
    keyIds: [keyIds[0]],
  });
  expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
  const row = await t.ctx.db
    .selectFrom('orders')
    .select('allocation_id')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return {
    body,
    orderId,
    allocationId: row.allocation_id,
    pulled: (await allocationRow(t, row.allocation_id)).quantity_pulled,
    live: { key: keys[1]!, keyId: keyIds[1]! },
    refunded: { key: keys[0]!, keyId: keyIds[0]! },
  };
}

/** What every replay of the partly refunded order answers: the live key, the refunded one named. */
function expectLiveOnly(data: Record<string, unknown>, o: Awaited<ReturnType<typeof partlyRefunded>>) {
  expect(data).toMatchObject({
    orderId: o.orderId,
    keys: [o.live.key],
    keyIds: [o.live.keyId],
    refundedKeyIds: [o.refunded.keyId],
  });
  expect(JSON.stringify(data)).not.toContain(o.refunded.key);
}

async function expectNothingPulled(seller: TestSeller, o: Awaited<ReturnType<typeof partlyRefunded>>) {
  expect(await ordersOf(t, seller.company.id)).toHaveLength(1);
  expect((await allocationRow(t, o.allocationId)).quantity_pulled).toBe(o.pulled);
}

describe('replays of an order with refunded keys (docs/checkout.md, "Replays")', () => {
  it('answers the live keys of the same orderReference and names the refunded one, pulling nothing', async () => {
    const seller = await makeSeller(t);
    const o = await partlyRefunded(seller);
    const replay = await post(t, seller, '/orders', o.body, { 'idempotency-key': ref('idem') });
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expectLiveOnly(replay.body.data, o);
    await expectNothingPulled(seller, o);
  });

  it('leaves the refunded key out of a replay by Idempotency-Key, stored before the refund', async () => {
    const seller = await makeSeller(t);
    const key = ref('idem');
    const o = await partlyRefunded(seller, key);
    // The second replay is answered from this process's memory of the first, before parsing.
    for (let i = 0; i < 2; i++) {
      const replay = await post(t, seller, '/orders', o.body, { 'idempotency-key': key });
      expect(replay.status).toBe(200);
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expectLiveOnly(replay.body.data, o);
    }
    await expectNothingPulled(seller, o);
  });

  it('recovers only the live key, naming the refunded one', async () => {
    const seller = await makeSeller(t);
    const o = await partlyRefunded(seller);
    const recovered = await post(t, seller, '/orders/recover-keys', {
      orderReference: o.body.orderReference,
    });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expectLiveOnly(recovered.body.data, o);
    expect(recovered.body.data.recovered).toBe(1);
    await expectNothingPulled(seller, o);
  });

  it('replays a bulk line with the live key only', async () => {
    const seller = await makeSeller(t);
    const o = await partlyRefunded(seller);
    const bulk = await post(t, seller, '/orders/bulk', { items: [o.body], strict: true });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.data.items[0]).toMatchObject({ status: 'fulfilled', replayed: true });
    expectLiveOnly(bulk.body.data.items[0].data, o);
    await expectNothingPulled(seller, o);
  });

  it('a commit replayed by Idempotency-Key after a refund answers the live key only', async () => {
    const s = await hotDropScenario(t);
    const post = (path: string, body: unknown, key?: string) =>
      call(t, {
        method: 'POST',
        url: `/api/seller/v1${path}`,
        headers: hotDropHeaders(s, key),
        payload: body as Record<string, unknown>,
      });
    const r = (await post('/orders/reserve', reserveBody(s, { quantity: 2 }))).body.data;
    const key = ref('commit');
    const committed = await post('/orders/commit', commitBody(s, r.reservationId), key);
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    const { keys, keyIds } = committed.body.data as { keys: string[]; keyIds: string[] };
    const refunded = await post('/refunds', {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [keyIds[1]],
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const replay = await post('/orders/commit', commitBody(s, r.reservationId), key);
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({
      keys: [keys[0]],
      keyIds: [keyIds[0]],
      refundedKeyIds: [keyIds[1]],
    });
    expect(JSON.stringify(replay.body)).not.toContain(keys[1]!);
  });

  it('answers a fully refunded reference as a new order, never the refunded keys', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    expect(
      (await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: placed.keyIds })).status,
    ).toBe(200);
    const again = await post(t, seller, '/orders', alwaysOrder({ orderReference: placed.orderReference }));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.orderId).not.toBe(placed.orderId);
    expect(again.body.data.keyIds).not.toContain(placed.keyIds[0]);
    expect(again.body.data.keys).not.toContain(placed.keys[0]);
  });
});
