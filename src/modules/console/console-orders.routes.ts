import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { DateTime, OneOf, OrderReference, PageMeta, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import {
  createRefund,
  RefundBody,
  RefundSchema,
  ReplacementSchema,
  ReturnBody,
  ReturnSchema,
  replaceKey,
  returnKeys,
} from '../after-sale/index.js';
import { auditActorOf } from '../audit/index.js';
import {
  CancelledPreorder,
  cancelPreorder,
  cancelReservation,
  findOrder,
  ORDER_ORIGINS,
  OrderAggregate,
  type OrderRow,
  orderListPage,
  ReleasedReservation,
  reservationsUnderReference,
  type SellerActor,
} from '../checkout/index.js';
import {
  ConsoleOrderRow,
  consoleAnswer,
  consoleData,
  OrderDetailSchema,
  ReservationUnderReference,
} from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSellerSession, type SessionNeeds, secretAnswer } from './console-http.js';
import { orderOfKeyCode } from './console-key-search.js';
import { orderDetail } from './console-order-detail.js';
import { afterSaleOf } from './console-order-state.js';
import { can } from './roles.js';
import { principalOfSession } from './sessions.service.js';

const open = { config: { auth: 'none' } } as const;
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const refund = { capability: 'orders:refund' } as const;
const manage = { capability: 'orders:manage' } as const;

/**
 * The session as a seller actor. An action on an order acts in the order's reference namespace:
 * in sandbox that is the API key that placed it (references are per key there), in production
 * the company.
 */
async function actorOf(ctx: AppContext, request: FastifyRequest, needs: SessionNeeds = {}) {
  const { session, seller } = await requireSellerSession(ctx, request, needs);
  const principal = principalOfSession(session);
  return {
    session,
    actor: { ...seller, apiKeyId: principal.keyId } as SellerActor,
    by: auditActorOf(principal),
  };
}

async function orderOf(ctx: AppContext, request: FastifyRequest, id: string, needs: SessionNeeds = {}) {
  const { session, actor, by } = await actorOf(ctx, request, needs);
  const order = await findOrder(ctx.db, actor.sellerId, actor.environment, id);
  if (!order) throw await notHere(ctx, actor, id);
  return { session, order, by, actor: inNamespaceOf(actor, order) };
}

/** NOT_FOUND, naming the company's other environment when the order is there (a link shared across). */
async function notHere(ctx: AppContext, actor: SellerActor, id: string) {
  const other = actor.environment === 'sandbox' ? 'production' : 'sandbox';
  const elsewhere = await findOrder(ctx.db, actor.sellerId, other, id);
  return elsewhere
    ? fail('NOT_FOUND', `No order ${id} in ${actor.environment}; it is in ${other}.`, {
        otherEnvironment: other,
      })
    : fail('NOT_FOUND', `No order ${id}.`);
}

const inNamespaceOf = (actor: SellerActor, order: OrderRow): SellerActor =>
  actor.environment === 'sandbox' ? { ...actor, apiKeyId: order.reference_owner } : actor;

/** The Orders pages: the seller API's order reads and after-sale actions, as the signed-in user. */
export function registerConsoleOrderRoutes(app: TypedApp, ctx: AppContext): void {
  const base = `${CONSOLE_API}/orders`;

  app.get(
    base,
    {
      ...open,
      schema: {
        ...consoleAnswer(Type.Object({ data: Type.Array(ConsoleOrderRow), meta: PageMeta })),
        querystring: Type.Object(
          {
            orderReference: Type.Optional(OrderReference),
            skuCode: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
            kind: Type.Optional(OneOf([...ORDER_ORIGINS])),
            from: Type.Optional(DateTime),
            to: Type.Optional(DateTime),
            cursor: Type.Optional(Type.String({ maxLength: 500 })),
            limit: LimitQuery(100, 50),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { actor } = await actorOf(ctx, request);
      const { kind, ...q } = request.query;
      const page = await orderListPage(ctx, actor, { ...q, origin: kind }, nextPageUrl(request.url));
      const states = await afterSaleOf(
        ctx,
        page.data.map((order) => order.id),
      );
      return { ...page, data: page.data.map((order) => ({ ...order, afterSale: states.get(order.id)! })) };
    },
  );

  /** The order holding a key a buyer quotes; the code travels in the body, never in a logged URL. */
  app.post(
    `${base}/by-key-code`,
    {
      ...open,
      schema: {
        ...consoleData(
          Type.Object({
            orderId: Type.String(),
            readableId: Type.String(),
            orderReference: Type.String(),
            keyId: Type.String(),
          }),
        ),
        body: Type.Object(
          { code: Type.String({ minLength: 1, maxLength: 300 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { actor } = await actorOf(ctx, request);
      return { data: await orderOfKeyCode(ctx, actor, request.body.code) };
    },
  );

  app.get(
    `${base}/reservations`,
    {
      ...open,
      schema: {
        ...consoleData(Type.Array(ReservationUnderReference)),
        querystring: Type.Object({ orderReference: OrderReference }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const { actor } = await actorOf(ctx, request);
      const rows = await reservationsUnderReference(ctx.db, actor, request.query.orderReference, 20);
      const now = ctx.clock.now();
      return {
        data: rows.map((r) => ({
          reservationId: r.id,
          skuCode: r.sku_code,
          quantity: r.quantity,
          status: r.status === 'live' && r.expires_at <= now ? 'expired' : r.status,
          expiresAt: new Date(r.expires_at).toISOString(),
        })),
      };
    },
  );

  app.get(
    `${base}/:id`,
    { ...open, schema: { ...consoleData(OrderDetailSchema), params: Params } },
    async (request) => {
      const { session, order, actor } = await orderOf(ctx, request, request.params.id);
      return { data: await orderDetail(ctx, actor, order, can(session.role, 'finance:read')) };
    },
  );

  app.post(
    `${base}/:id/refunds`,
    { ...open, schema: { ...consoleData(RefundSchema), params: Params, body: RefundBody } },
    async (request) => {
      const { actor, by, order } = await orderOf(ctx, request, request.params.id, refund);
      return { data: (await createRefund(ctx, actor, by, request.body, order.id)).view };
    },
  );

  app.post(
    `${base}/:id/returns`,
    { ...open, schema: { ...consoleData(ReturnSchema), params: Params, body: ReturnBody } },
    async (request) => {
      const { actor, by, order } = await orderOf(ctx, request, request.params.id, manage);
      return { data: await returnKeys(ctx, actor, by, request.body, order.id) };
    },
  );

  app.post(
    `${base}/:id/replacements`,
    {
      ...secretAnswer,
      schema: {
        ...consoleData(ReplacementSchema),
        params: Params,
        body: Type.Object(
          {
            keyId: Type.String({ minLength: 1, maxLength: 64 }),
            reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { actor, by, order } = await orderOf(ctx, request, request.params.id, manage);
      return { data: await replaceKey(ctx, actor, by, request.body, order.id) };
    },
  );

  /** Cancels the order's open pre-order (its capacity returns), as POST /orders/cancel {orderReference}. */
  app.post(
    `${base}/:id/cancel`,
    { ...open, schema: { ...consoleData(CancelledPreorder), params: Params } },
    async (request) => {
      const { order, actor } = await orderOf(ctx, request, request.params.id, manage);
      return { data: await cancelPreorder(ctx, actor, order.order_reference) };
    },
  );

  /** Releases a live hot-drop reservation, as POST /orders/cancel {reservationId}. */
  app.post(
    `${base}/reservations/:reservationId/cancel`,
    {
      ...open,
      schema: { ...consoleData(ReleasedReservation), params: Type.Object({ reservationId: Uuid }) },
    },
    async (request) => {
      const { actor } = await actorOf(ctx, request, manage);
      const data = await cancelReservation(ctx, actor, request.params.reservationId);
      ctx.metrics.reservations.inc({ environment: actor.environment, outcome: 'released' });
      return { data };
    },
  );
}
