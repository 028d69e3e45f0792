import type { AppContext } from '../../../context.js';
import { heavyReader } from '../../../db/replica.js';
import { fail } from '../../../http/errors.js';
import { keyIdsOfOrders, keysOfOrder, openKeys } from '../../inventory/index.js';
import type { SellerActor } from '../line/quote.js';
import { orderAggregate } from './order-view.js';
import * as repo from './orders.repo.js';
import { findByReference, orderResponse } from './orders.service.js';

export interface OrderListQuery {
  orderReference?: string;
  skuCode?: string;
  origin?: repo.OrderOrigin;
  from?: number;
  to?: number;
  before?: readonly [number, string];
  limit: number;
}

/** GET /orders: the seller's order aggregates, newest first; never plaintext keys. */
export async function listOrders(ctx: AppContext, actor: SellerActor, q: OrderListQuery) {
  const reads = await heavyReader(ctx, actor.sellerId);
  const rows = await repo.listOrders(reads, {
    sellerId: actor.sellerId,
    environment: actor.environment,
    ...q,
  });
  const keyIds = new Map<string, string[]>(rows.map((order) => [order.id, []]));
  if (rows.length > 0) {
    for (const key of await keyIdsOfOrders(
      reads,
      rows.map((order) => order.id),
    )) {
      keyIds.get(key.order_id!)?.push(key.id);
    }
  }
  return rows.map((order) => ({ order, view: orderAggregate(order, keyIds.get(order.id)!) }));
}

async function requireOrder(ctx: AppContext, actor: SellerActor, id: string) {
  const order = await repo.findOrder(ctx.db, actor.sellerId, actor.environment, id);
  if (!order) throw fail('NOT_FOUND', `No order ${id}.`);
  return order;
}

/** GET /orders/{orderReadableId} (the uuid works too). */
export async function getOrder(ctx: AppContext, actor: SellerActor, id: string) {
  const reads = await heavyReader(ctx, actor.sellerId);
  const order = await repo.findOrder(reads, actor.sellerId, actor.environment, id);
  if (!order) throw fail('NOT_FOUND', `No order ${id}.`);
  return orderAggregate(
    order,
    (await keysOfOrder(reads, order.id)).map((k) => k.id),
  );
}

const cannotReveal = (order: repo.OrderRow, reason: string, message: string) =>
  fail('VALIDATION_FAILED', message, {
    reason,
    orderId: order.id,
    issues: [{ field: 'orderId', in: 'path', message, keyword: 'state' }],
  });

/**
 * POST /orders/{orderId}/fulfill: reveals the keys of a deferred order (and returns those of an
 * order already revealed). Keyless and pre-order fulfilments have no keys to reveal here.
 */
export async function revealOrder(ctx: AppContext, actor: SellerActor, id: string) {
  const order = await requireOrder(ctx, actor, id);
  if (order.delivery === 'keyless')
    throw cannotReveal(order, 'keyless_delivery', 'A keyless order is redeemed by the buyer, not revealed.');
  if (order.delivery === 'preorder')
    throw cannotReveal(order, 'preorder_not_released', 'A pre-order has no keys before its release.');
  if (order.delivery === 'cancelled')
    throw cannotReveal(order, 'preorder_cancelled', 'A cancelled pre-order has no keys.');
  if (order.delivery === 'failed')
    throw cannotReveal(order, 'preorder_failed', 'A failed pre-order (order.failed) has no keys.');
  const keys = (await keysOfOrder(ctx.db, order.id)).filter((k) => k.state === 'sold');
  const plaintext = openKeys(ctx, keys);
  if (order.revealed_at === null) await repo.markRevealed(ctx.db, order.id, ctx.clock.now());
  const view = await orderResponse(ctx, order);
  return { ...view, keys: plaintext, keyIds: keys.map((k) => k.id), deferredReveal: false };
}

/** POST /orders/recover-keys: the live keys already sold under a reference; never pulls new ones. */
export async function recoverKeys(ctx: AppContext, actor: SellerActor, orderReference: string) {
  const order = await findByReference(ctx, actor, orderReference);
  if (!order) throw fail('NOT_FOUND', `No order with orderReference ${orderReference}.`, { orderReference });
  const live = order.delivery === 'keys' || order.delivery === 'deferred';
  const keys = live ? (await keysOfOrder(ctx.db, order.id)).filter((k) => k.state === 'sold') : [];
  if (order.delivery === 'deferred' && order.revealed_at === null) {
    await repo.markRevealed(ctx.db, order.id, ctx.clock.now());
  }
  const view = await orderResponse(ctx, order);
  return { ...view, keys: openKeys(ctx, keys), keyIds: keys.map((k) => k.id), recovered: keys.length };
}
