import { describe, expect, it } from 'vitest';
import { LENIENT_POLICY, order, refund, setPolicy } from '../../../test/after-sale.js';
import { alwaysOrder, post, ref, US_SALE } from '../../../test/checkout.js';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { makeKey, makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { commitReservation, reserveSandboxHotDrop } from '../../../test/hot-drop.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { sweepReservations } from '../checkout/reservations/lifecycle.service.js';

const t = useTestApp();

/** A console order row as the seller API answers it: the console adds what happened after the sale. */
const withoutAfterSale = ({ afterSale: _, ...order }: Record<string, unknown>) => order;

const api = (auth: Record<string, string>, path: string) =>
  call(t, { method: 'GET', url: `/api/seller/v1${path}`, headers: auth });

const reserve = (seller: TestSeller, orderReference: string) =>
  reserveSandboxHotDrop(t, seller, orderReference);
const commit = (seller: TestSeller, reservationId: string) => commitReservation(t, seller, reservationId);

describe('console orders', () => {
  it('searches like GET /orders (same answer), by reference, SKU and kind, and pages by keyset', async () => {
    const dev = await consoleUser(t, 'developer');
    const seller = dev.seller;
    const first = await order(t, seller);
    const second = await order(t, seller, { quantity: 2 });
    const all = await consoleCall(t, dev, 'GET', '/orders?limit=1');
    expect(all.status).toBe(200);
    expect(all.body.data.map((o: { orderReference: string }) => o.orderReference)).toEqual([
      second.orderReference,
    ]);
    const apiPage = await api(seller.auth, '/orders?limit=1');
    expect(all.body.data.map(withoutAfterSale)).toEqual(apiPage.body.data);
    const next = await consoleCall(t, dev, 'GET', `/orders?limit=1&cursor=${all.body.meta.nextCursor}`);
    expect(next.body.data.map((o: { orderReference: string }) => o.orderReference)).toEqual([
      first.orderReference,
    ]);
    expect(next.body.meta.hasMore).toBe(false);

    const byRef = await consoleCall(t, dev, 'GET', `/orders?orderReference=${first.orderReference}`);
    expect(byRef.body.data).toHaveLength(1);
    const sku = byRef.body.data[0].skuCode as string;
    expect((await consoleCall(t, dev, 'GET', `/orders?skuCode=${sku}`)).body.data).toHaveLength(2);
    expect((await consoleCall(t, dev, 'GET', '/orders?skuCode=NO-SUCH-SKU')).body.data).toHaveLength(0);
    expect((await consoleCall(t, dev, 'GET', '/orders?kind=order')).body.data).toHaveLength(2);
    expect((await consoleCall(t, dev, 'GET', '/orders?kind=pull')).body.data).toHaveLength(0);
    expect((await consoleCall(t, dev, 'GET', '/orders?kind=preorder')).body.data).toHaveLength(0);
    expect((await consoleCall(t, dev, 'GET', '/orders?kind=reservation')).body.data).toHaveLength(0);
    expectApiError(await consoleCall(t, dev, 'GET', '/orders?kind=bogus'), 422, 'VALIDATION_FAILED');
    expectApiError(await consoleCall(t, dev, 'GET', '/orders?colour=red'), 422, 'VALIDATION_FAILED');
  });

  it('tells bulk lines from single orders (kind=bulk), with the seller API answers unchanged', async () => {
    const dev = await consoleUser(t, 'developer');
    const seller = dev.seller;
    const single = await order(t, seller);
    const strict = await post(t, seller, '/orders/bulk', { items: [alwaysOrder(), alwaysOrder()] });
    expect(strict.status, JSON.stringify(strict.body)).toBe(200);
    const lenient = await post(
      t,
      seller,
      '/orders/bulk',
      { items: [alwaysOrder(), alwaysOrder({ skuCode: 'SANDBOX-NOKEYS-001' })] },
      { 'x-service-api-version': '2026-04-29' },
    );
    expect(lenient.body.meta).toMatchObject({ strict: false, fulfilled: 1, failed: 1 });
    // A bulk line replaying the single order's reference replays it: it stays a single order.
    const replay = await post(t, seller, '/orders/bulk', {
      items: [alwaysOrder({ orderReference: single.orderReference })],
    });
    expect(replay.body.data.items[0].replayed).toBe(true);

    const references = (kind: string) =>
      consoleCall(t, dev, 'GET', `/orders?kind=${kind}`).then((r) =>
        r.body.data.map((o: { orderReference: string }) => o.orderReference).sort(),
      );
    const bulkLines = [
      ...strict.body.data.items.map((i: { orderReference: string }) => i.orderReference),
      lenient.body.data.items[0].orderReference,
    ].sort();
    expect(await references('bulk')).toEqual(bulkLines);
    expect(await references('order')).toEqual([single.orderReference]);
    expect(await references('reservation')).toEqual([]);

    const all = await consoleCall(t, dev, 'GET', '/orders');
    expect(all.body.data).toHaveLength(4);
    expect(all.body.data.map(withoutAfterSale)).toEqual((await api(seller.auth, '/orders')).body.data);
    expect(Object.keys(all.body.data[0])).not.toContain('bulkLine');

    const line = strict.body.data.items[0].data as { orderId: string };
    expect((await consoleCall(t, dev, 'GET', `/orders/${line.orderId}`)).body.data.bulkLine).toBe(true);
    expect((await consoleCall(t, dev, 'GET', `/orders/${single.orderId}`)).body.data.bulkLine).toBe(false);
  });

  it('finds a committed hot-drop reservation under kind=reservation only, and shows it on the order page', async () => {
    const dev = await consoleUser(t, 'developer');
    const seller = dev.seller;
    const single = await order(t, seller);
    const bulk = await post(t, seller, '/orders/bulk', { items: [alwaysOrder()] });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const orderReference = ref('hd');
    const reserved = await post(
      t,
      seller,
      '/orders/reserve',
      {
        skuCode: 'SANDBOX-HOTDROP-001',
        quantity: 2,
        countryCode: 'US',
        expectedUnitPriceCents: 1999,
        orderReference,
      },
      { 'idempotency-key': ref('idem') },
    );
    expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
    const { reservationId } = reserved.body.data;
    // Live, not yet committed: no order stands under the reference.
    expect((await consoleCall(t, dev, 'GET', '/orders?kind=reservation')).body.data).toEqual([]);
    const committed = await post(
      t,
      seller,
      '/orders/commit',
      { reservationId, integrationOrderContext: US_SALE },
      { 'idempotency-key': ref('idem') },
    );
    expect(committed.status, JSON.stringify(committed.body)).toBe(200);
    const { orderId } = committed.body.data as { orderId: string };

    const references = (kind: string) =>
      consoleCall(t, dev, 'GET', `/orders?kind=${kind}`).then((r) =>
        r.body.data.map((o: { orderReference: string }) => o.orderReference),
      );
    expect(await references('reservation')).toEqual([orderReference]);
    expect(await references('order')).toEqual([single.orderReference]);
    expect(await references('bulk')).toEqual([bulk.body.data.items[0].orderReference]);
    expect(await references('preorder')).toEqual([]);
    const found = await consoleCall(
      t,
      dev,
      'GET',
      `/orders?kind=reservation&orderReference=${orderReference}`,
    );
    expect(found.body.data.map(withoutAfterSale)).toEqual(
      (await api(seller.auth, `/orders?orderReference=${orderReference}`)).body.data,
    );
    expect(found.body.data[0]).toMatchObject({ id: orderId, quantity: 2 });

    const detail = (await consoleCall(t, dev, 'GET', `/orders/${orderId}`)).body.data;
    expect(detail.bulkLine).toBe(false);
    expect(detail.reservation).toMatchObject({
      id: reservationId,
      status: 'consumed',
      quantity: 2,
      extended: false,
    });
    expect(detail.keys).toHaveLength(2);
    expect((await consoleCall(t, dev, 'GET', `/orders/${single.orderId}`)).body.data.reservation).toBeNull();
    // Sandbox references are per API key: a sibling key's plain order under the same reference
    // is an order, not a reservation commit, and its page shows no reservation.
    const sibling = { ...(await makeKey(t, seller.company.id)), company: seller.company };
    const twin = await post(t, sibling, '/orders', alwaysOrder({ orderReference }));
    expect(twin.status, JSON.stringify(twin.body)).toBe(200);
    const ids = (kind: string) =>
      consoleCall(t, dev, 'GET', `/orders?kind=${kind}`).then((r) =>
        r.body.data.map((o: { id: string }) => o.id),
      );
    expect(await ids('reservation')).toEqual([orderId]);
    expect(await ids('order')).toEqual([twin.body.data.orderId, single.orderId]);
    expect(
      (await consoleCall(t, dev, 'GET', `/orders/${twin.body.data.orderId}`)).body.data.reservation,
    ).toBeNull();
    const listed = await consoleCall(t, dev, 'GET', `/orders/reservations?orderReference=${orderReference}`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        reservationId,
        skuCode: 'SANDBOX-HOTDROP-001',
        quantity: 2,
        status: 'consumed',
      }),
    ]);
  });

  it('counts a sandbox commit by a sibling key (filed under that key) as a reservation commit', async () => {
    const dev = await consoleUser(t, 'developer');
    const seller = dev.seller;
    const sibling = { ...(await makeKey(t, seller.company.id)), company: seller.company };
    const orderReference = ref('hd');
    const reservationId = await reserve(seller, orderReference);
    const { orderId } = await commit(sibling, reservationId);
    const ids = (kind: string) =>
      consoleCall(t, dev, 'GET', `/orders?kind=${kind}`).then((r) =>
        r.body.data.map((o: { id: string }) => o.id),
      );
    expect(await ids('reservation')).toEqual([orderId]);
    expect(await ids('order')).toEqual([]);
    const detail = (await consoleCall(t, dev, 'GET', `/orders/${orderId}`)).body.data;
    expect(detail.reservation).toMatchObject({ id: reservationId, status: 'consumed', quantity: 1 });
    // The seller API answers the order as before: the link is the console's, not the API's.
    const listed = (await api(sibling.auth, `/orders?orderReference=${orderReference}`)).body.data;
    expect(listed).toEqual([detail.order]);
    expect(Object.keys(detail.order)).not.toContain('reservationId');
  });

  it("counts a plain order reusing a refunded commit's reference as an order, not a commit", async () => {
    const dev = await consoleUser(t, 'developer');
    const seller = dev.seller;
    const orderReference = ref('hd');
    const reservationId = await reserve(seller, orderReference);
    const committed = await commit(seller, reservationId);
    const { allocation_id } = await t.ctx.db
      .selectFrom('orders')
      .select('allocation_id')
      .where('id', '=', committed.orderId)
      .executeTakeFirstOrThrow();
    await setPolicy(t, allocation_id, LENIENT_POLICY);
    const refunded = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: committed.keyIds,
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    // Fully refunded, the commit gave its reference up: a plain order takes it again.
    const reused = await order(t, seller, { orderReference });
    const ids = (kind: string) =>
      consoleCall(t, dev, 'GET', `/orders?kind=${kind}`).then((r) =>
        r.body.data.map((o: { id: string }) => o.id),
      );
    expect(await ids('reservation')).toEqual([committed.orderId]);
    expect(await ids('order')).toEqual([reused.orderId]);
    const page = (id: string) => consoleCall(t, dev, 'GET', `/orders/${id}`).then((r) => r.body.data);
    expect((await page(reused.orderId)).reservation).toBeNull();
    expect((await page(committed.orderId)).reservation).toMatchObject({
      id: reservationId,
      status: 'consumed',
    });
  });

  it("shows no reservation on a plain order reusing an expired reservation's reference", async () => {
    const dev = await consoleUser(t, 'developer');
    const seller = dev.seller;
    const orderReference = ref('hd');
    const reservationId = await reserve(seller, orderReference);
    t.ctx.testClock!.advance(61);
    await sweepReservations(t.ctx);
    const reused = await order(t, seller, { orderReference });
    const detail = (await consoleCall(t, dev, 'GET', `/orders/${reused.orderId}`)).body.data;
    expect(detail.reservation).toBeNull();
    expect(
      (await consoleCall(t, dev, 'GET', '/orders?kind=reservation')).body.data.map(
        (o: { id: string }) => o.id,
      ),
    ).toEqual([]);
    // The reference's own search still lists the expired reservation.
    const listed = await consoleCall(t, dev, 'GET', `/orders/reservations?orderReference=${orderReference}`);
    expect(listed.body.data).toEqual([expect.objectContaining({ reservationId, status: 'expired' })]);
  });

  it("shows an order's keys by id, its events and refunds, never a plaintext key; another company's order is 404", async () => {
    const owner = await consoleUser(t, 'owner');
    const placed = await order(t, owner.seller, { quantity: 2 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const page = await consoleCall(t, owner, 'GET', `/orders/${placed.orderId}`);
    expect(page.status).toBe(200);
    const detail = page.body.data;
    expect(detail.order).toEqual((await api(owner.seller.auth, `/orders/${placed.orderId}`)).body.data);
    expect(detail.keys).toEqual(
      placed.keyIds
        .map((id) => ({ id, state: 'sold', takenBackBy: null, replacedBy: null }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(detail.afterSale).toEqual({ refunded: 0, chargedBack: 0, returned: 0, replaced: 0 });
    expect(detail.events.map((e: { eventType: string }) => e.eventType)).toContain('order.fulfilled');
    expect(detail.saleLines).toHaveLength(1);
    expect(detail.refunds).toEqual([]);

    const refunded = await consoleCall(t, owner, 'POST', `/orders/${placed.orderId}/refunds`, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: [placed.keyIds[0]],
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const after = (await consoleCall(t, owner, 'GET', `/orders/${placed.orderId}`)).body.data;
    expect(after.refunds.map((r: { refundId: string }) => r.refundId)).toEqual([refunded.body.data.refundId]);
    expect(after.keys.find((k: { id: string }) => k.id === placed.keyIds[0])).toMatchObject({
      state: 'quarantined',
      takenBackBy: 'refund',
    });
    expect(after.afterSale).toEqual({ refunded: 1, chargedBack: 0, returned: 0, replaced: 0 });
    // The list says the same: refunded 1 of 2.
    const listed = await consoleCall(t, owner, 'GET', `/orders?orderReference=${placed.orderReference}`);
    expect(listed.body.data[0].afterSale).toEqual({ refunded: 1, chargedBack: 0, returned: 0, replaced: 0 });
    expect(after.events.map((e: { eventType: string }) => e.eventType)).toContain('refund.completed');
    expect(after.saleLines.map((l: { entryType: string }) => l.entryType).sort()).toEqual([
      'sale',
      'sale_reversal',
    ]);

    const answers = JSON.stringify([page.body, after, refunded.body]);
    for (const key of placed.keys) expect(answers).not.toContain(key);

    const stranger = await consoleUser(t, 'owner', await makeSeller(t));
    expectApiError(await consoleCall(t, stranger, 'GET', `/orders/${placed.orderId}`), 404, 'NOT_FOUND');
    expectApiError(
      await consoleCall(t, stranger, 'POST', `/orders/${placed.orderId}/returns`, {
        keyIds: [placed.keyIds[1]],
        reason: 'not theirs',
      }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await consoleCall(t, stranger, 'GET', `/orders?orderReference=${placed.orderReference}`)).body.data,
    ).toEqual([]);
  });

  it('lets roles act as the role table says, with the API codes', async () => {
    const owner = await consoleUser(t, 'owner');
    const placed = await order(t, owner.seller, { quantity: 3 });
    await setPolicy(t, placed.allocationId, LENIENT_POLICY);
    const viewer = await consoleUser(t, 'viewer', owner.seller);
    const finance = await consoleUser(t, 'finance', owner.seller);
    const developer = await consoleUser(t, 'developer', owner.seller);
    const refundOf = (keyId: string) => ({
      type: 'chargeback',
      chargebackReference: ref('cb'),
      keyIds: [keyId],
    });

    expect((await consoleCall(t, viewer, 'GET', `/orders/${placed.orderId}`)).body.data.saleLines).toBeNull();
    expectApiError(
      await consoleCall(t, viewer, 'POST', `/orders/${placed.orderId}/refunds`, refundOf(placed.keyIds[0]!)),
      403,
      'FORBIDDEN',
    );
    const charged = await consoleCall(
      t,
      finance,
      'POST',
      `/orders/${placed.orderId}/refunds`,
      refundOf(placed.keyIds[0]!),
    );
    expect(charged.status, JSON.stringify(charged.body)).toBe(200);
    expect(charged.body.data.adjustmentType).toBe('chargeback');
    const again = await consoleCall(
      t,
      finance,
      'POST',
      `/orders/${placed.orderId}/refunds`,
      refundOf(placed.keyIds[0]!),
    );
    // the API's own refusal: the key is no longer a sold key
    expect([again.status, again.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    expectApiError(
      await consoleCall(t, finance, 'POST', `/orders/${placed.orderId}/returns`, {
        keyIds: [placed.keyIds[1]],
        reason: 'buyer changed mind',
      }),
      403,
      'FORBIDDEN',
    );
    const returned = await consoleCall(t, developer, 'POST', `/orders/${placed.orderId}/returns`, {
      keyIds: [placed.keyIds[1]],
      reason: 'buyer changed mind',
    });
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    const replaced = await consoleCall(t, developer, 'POST', `/orders/${placed.orderId}/replacements`, {
      keyId: placed.keyIds[2],
      reason: 'does not redeem',
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const detail = (await consoleCall(t, viewer, 'GET', `/orders/${placed.orderId}`)).body.data;
    expect(detail.afterSale).toEqual({ refunded: 0, chargedBack: 1, returned: 1, replaced: 1 });
    const byKey = Object.fromEntries(
      detail.keys.map((k: { id: string; takenBackBy: string | null; replacedBy: string | null }) => [
        k.id,
        [k.takenBackBy, k.replacedBy],
      ]),
    );
    expect(byKey[placed.keyIds[0]!]).toEqual(['chargeback', null]);
    expect(byKey[placed.keyIds[1]!]).toEqual(['return', null]);
    expect(byKey[placed.keyIds[2]!]).toEqual([null, replaced.body.data.keyId]);
    expectApiError(
      await consoleCall(t, developer, 'POST', `/orders/${placed.orderId}/cancel`),
      409,
      'ORDER_NOT_CANCELLABLE',
    );
    expect(
      (await consoleCall(t, finance, 'GET', `/orders/reservations?orderReference=${placed.orderReference}`))
        .body.data,
    ).toEqual([]);
  });
});
