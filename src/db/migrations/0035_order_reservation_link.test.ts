import { describe, expect, it } from 'vitest';
import { LENIENT_POLICY, order, refund, setPolicy } from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeKey, makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { commitReservation, reserveSandboxHotDrop } from '../../../test/hot-drop.js';
import { sweepReservations } from '../../modules/checkout/reservations/lifecycle.service.js';
import { down, up } from './0035_order_reservation_link.js';

const t = useTestApp();

const reserve = (seller: TestSeller, orderReference: string) =>
  reserveSandboxHotDrop(t, seller, orderReference);
const commit = (seller: TestSeller, reservationId: string) => commitReservation(t, seller, reservationId);

const links = async (sellerId: string) =>
  Object.fromEntries(
    (
      await t.ctx.db
        .selectFrom('orders')
        .select(['id', 'reservation_id'])
        .where('seller_company_id', '=', sellerId)
        .execute()
    ).map((o) => [o.id, o.reservation_id]),
  );

describe('migration 0035: orders name the reservation they committed', () => {
  it('links the orders written before it where the match is unambiguous, and only those', async () => {
    const seller = await makeSeller(t);
    const sibling = { ...(await makeKey(t, seller.company.id)), company: seller.company };
    // A commit; a sandbox commit by a sibling key (filed under that key).
    const plainRef = ref('hd');
    const plainReservation = await reserve(seller, plainRef);
    const plain = await commit(seller, plainReservation);
    const siblingReservation = await reserve(seller, ref('hd'));
    const bySibling = await commit(sibling, siblingReservation);
    // A fully refunded commit whose reference a plain order took again.
    const refundedRef = ref('hd');
    const refundedReservation = await reserve(seller, refundedRef);
    const refunded = await commit(seller, refundedReservation);
    const { allocation_id } = await t.ctx.db
      .selectFrom('orders')
      .select('allocation_id')
      .where('id', '=', refunded.orderId)
      .executeTakeFirstOrThrow();
    await setPolicy(t, allocation_id, LENIENT_POLICY);
    const refundBody = { type: 'refund', refundReference: ref('rf'), keyIds: refunded.keyIds };
    expect((await refund(t, seller, refundBody)).status).toBe(200);
    const reused = await order(t, seller, { orderReference: refundedRef });
    // A plain order under an expired reservation's reference.
    const expiredRef = ref('hd');
    await reserve(seller, expiredRef);
    t.ctx.testClock!.advance(61);
    await sweepReservations(t.ctx);
    const afterExpiry = await order(t, seller, { orderReference: expiredRef });
    // Two commits each another's twin in every column the match reads: neither can be told.
    const twinReservation = await reserve(seller, ref('hd'));
    const twin = await commit(seller, twinReservation);
    const twinRow = await t.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', twin.orderId)
      .executeTakeFirstOrThrow();
    const lookalike = await order(t, seller);
    await t.ctx.db
      .updateTable('orders')
      .set({
        order_reference: twinRow.order_reference,
        sku_code: twinRow.sku_code,
        allocation_id: twinRow.allocation_id,
        quantity: twinRow.quantity,
        created_at: twinRow.created_at,
        reference_owner: `${twinRow.reference_owner}~released~x`,
      })
      .where('id', '=', lookalike.orderId)
      .execute();

    const written = await links(seller.company.id);
    expect(written).toMatchObject({
      [plain.orderId]: plainReservation,
      [bySibling.orderId]: siblingReservation,
      [refunded.orderId]: refundedReservation,
      [reused.orderId]: null,
      [afterExpiry.orderId]: null,
      [twin.orderId]: twinReservation,
      [lookalike.orderId]: null,
    });

    // As before the migration: no link stored. Then the migration's backfill.
    await down(t.ctx.db);
    await up(t.ctx.db);
    expect(await links(seller.company.id)).toEqual({
      ...written,
      [twin.orderId]: null,
    });
  });
});
