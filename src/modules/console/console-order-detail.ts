import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { isoOf as iso } from '../../lib/clock.js';
import { refundView } from '../after-sale/refund-view.js';
import { listRefunds } from '../after-sale/refunds.service.js';
import type { SellerActor } from '../checkout/line/quote.service.js';
import { getOrder } from '../checkout/orders/order-reads.service.js';
import type { OrderRow } from '../checkout/orders/orders.repo.js';
import { reservationOfOrder } from '../checkout/reservations/reservations.repo.js';
import { listApiSales } from '../finance/api-sales.service.js';
import { afterSaleOf } from './console-order-state.js';

const PAGE = 100;

/**
 * Key ids and states only (the ciphertext never leaves the database for a console read), each
 * with what took it back (refund, chargeback, return) and the key that replaced it, if any.
 */
async function keysOf(ctx: AppContext, orderId: string) {
  const [keys, taken, replacements] = await Promise.all([
    ctx.db
      .selectFrom('game_keys')
      .select(['id', 'state'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute(),
    ctx.db
      .selectFrom('refund_keys')
      .select(['key_id', 'cause'])
      .where('order_id', '=', orderId)
      .where('reinstated_at', 'is', null)
      .execute(),
    ctx.db
      .selectFrom('key_replacements')
      .select(['replaced_key_id', 'key_id'])
      .where('order_id', '=', orderId)
      .execute(),
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
  const hold = await ctx.db
    .selectFrom('checkout_holds')
    .select(['id', 'status', 'quantity', 'expires_at', 'created_at'])
    .where('id', '=', order.hold_id)
    .where('seller_company_id', '=', order.seller_company_id)
    .executeTakeFirst();
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
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await ctx.db
    .selectFrom('outbox_events')
    .select(['event_id', 'event_type', 'payload', 'created_at_us'])
    .where('company_id', '=', order.seller_company_id)
    .where('environment', '=', order.environment)
    .where('created_at_us', '>=', order.created_at * 1000)
    .where('target_endpoint_id', 'is', null)
    .where(sql<boolean>`${sql.ref('payload')} like ${pattern} escape '\\'`)
    .orderBy('seq')
    .limit(PAGE)
    .execute();
  const events = rows.filter((row) => JSON.parse(row.payload).orderReference === order.order_reference);
  const deliveries =
    events.length === 0
      ? []
      : await ctx.db
          .selectFrom('webhook_deliveries')
          .select(['event_id', 'endpoint_id', 'status', 'attempts', 'last_status_code', 'last_error'])
          .where(
            'event_id',
            'in',
            events.map((e) => e.event_id),
          )
          .execute();
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
