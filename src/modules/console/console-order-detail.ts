import type { AppContext } from '../../context.js';
import { isoOf as iso } from '../../lib/clock.js';
import { listRefunds, refundView } from '../after-sale/index.js';
import { getOrder, type OrderRow, reservationOfOrder, type SellerActor } from '../checkout/index.js';
import { listApiSales } from '../finance/index.js';
import { afterSaleOf } from './console-order-state.js';
import * as repo from './console-orders.repo.js';

const PAGE = 100;

/**
 * Key ids and states only (the ciphertext never leaves the database for a console read), each
 * with what took it back (refund, chargeback, return) and the key that replaced it, if any.
 */
async function keysOf(ctx: AppContext, orderId: string) {
  const [keys, taken, replacements] = await Promise.all([
    repo.keyStatesOfOrder(ctx.db, orderId),
    repo.keysTakenBackOfOrder(ctx.db, orderId),
    repo.replacementsOfOrder(ctx.db, orderId),
  ]);
  return keys.map((key) => ({
    id: key.id,
    state: key.state,
    takenBackBy: taken.find((t) => t.key_id === key.id)?.cause ?? null,
    replacedBy: replacements.find((r) => r.replaced_key_id === key.id)?.key_id ?? null,
  }));
}

async function holdOf(ctx: AppContext, order: OrderRow) {
  if (!order.hold_id) return null;
  const hold = await repo.holdOfSeller(ctx.db, order.seller_company_id, order.hold_id);
  return hold
    ? {
        id: hold.id,
        status: hold.status,
        quantity: hold.quantity,
        expiresAt: iso(hold.expires_at),
        createdAt: iso(hold.created_at),
      }
    : null;
}

async function reservationOf(ctx: AppContext, order: OrderRow) {
  // The reservation the order itself names (set when a commit wrote it), never one matched by reference.
  const row = await reservationOfOrder(ctx.db, order);
  return row
    ? {
        id: row.id,
        status: row.status,
        quantity: row.quantity,
        extended: row.extended > 0,
        expiresAt: iso(row.expires_at),
        createdAt: iso(row.created_at),
      }
    : null;
}

/** The events naming the order's reference since it was placed, each with its webhook deliveries. */
async function eventsOf(ctx: AppContext, order: OrderRow) {
  const needle = JSON.stringify({ orderReference: order.order_reference }).slice(1, -1);
  const rows = await repo.eventsMentioning(
    ctx.db,
    { companyId: order.seller_company_id, environment: order.environment },
    order.created_at * 1000,
    needle,
    PAGE,
  );
  const events = rows.filter((row) => JSON.parse(row.payload).orderReference === order.order_reference);
  const deliveries =
    events.length === 0
      ? []
      : await repo.deliveriesOfEvents(
          ctx.db,
          events.map((e) => e.event_id),
        );
  return events.map((event) => ({
    eventId: event.event_id,
    eventType: event.event_type,
    createdAt: iso(Math.floor(event.created_at_us / 1000)),
    deliveries: deliveries
      .filter((d) => d.event_id === event.event_id)
      .map((d) => ({
        endpointId: d.endpoint_id,
        status: d.status,
        attempts: d.attempts,
        lastStatusCode: d.last_status_code,
        lastError: d.last_error,
      })),
  }));
}

/**
 * The console's order page: the API's order aggregate, whether it was a bulk line, then what
 * surrounds it (keys by id and state, hold, reservation, refunds and returns, sale lines when
 * the role reads finance, and the events with their deliveries). Never a plaintext key.
 */
export async function orderDetail(
  ctx: AppContext,
  actor: SellerActor,
  order: OrderRow,
  withFinance: boolean,
) {
  const scope = { sellerId: actor.sellerId, environment: actor.environment };
  const [aggregate, keys, hold, reservation, refunds, sales, events, states] = await Promise.all([
    getOrder(ctx, actor, order.id),
    keysOf(ctx, order.id),
    holdOf(ctx, order),
    reservationOf(ctx, order),
    listRefunds(ctx, actor, { orderReference: order.order_reference, limit: PAGE }),
    withFinance
      ? listApiSales(ctx, { ...scope, orderReference: order.order_reference, limit: PAGE }, (c) => c)
      : null,
    eventsOf(ctx, order),
    afterSaleOf(ctx, [order.id]),
  ]);
  return {
    order: aggregate,
    /** Written as a line of POST /orders/bulk (orders before migration 0033 read as single). */
    bulkLine: order.bulk_line === 1,
    keys,
    afterSale: states.get(order.id)!,
    hold,
    reservation,
    refunds: refunds.slice(0, PAGE).map(refundView),
    saleLines: sales ? sales.data : null,
    events,
  };
}
