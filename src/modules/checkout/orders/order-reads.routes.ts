import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { decodeCursor, encodeCursor, LimitQuery, nextPageUrl } from '../../../http/pagination.js';
import { actorOf } from '../../../http/request-context.js';
import { DateTime, errorResponses, Nullable, OrderReference, PageMeta } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { instantOf } from '../../../lib/clock.js';
import { FulfilledSchema } from '../checkout.schemas.js';
import type { SellerActor } from '../line/quote.js';
import {
  getOrder,
  listOrders,
  type OrderListQuery,
  recoverKeys,
  revealOrder,
} from './order-reads.service.js';

export const OrderAggregate = Type.Object({
  id: Type.String(),
  readableId: Type.String(),
  orderReference: Type.String(),
  kind: Type.String({ description: 'order, pull or export' }),
  delivery: Type.String({ description: 'keys, deferred, keyless, preorder, cancelled or failed' }),
  skuId: Type.String(),
  skuCode: Type.String(),
  productId: Type.String(),
  allocationId: Type.String(),
  publisherCompanyId: Type.String(),
  quantity: Type.Integer(),
  pulled: Type.Integer(),
  keyIds: Type.Array(Type.String()),
  unitPriceCents: Nullable(Type.Integer()),
  initialUnitPriceCents: Nullable(Type.Integer()),
  currencyCode: Nullable(Type.String()),
  countryCode: Nullable(Type.String()),
  wholesaleUnitPriceCents: Nullable(Type.Integer()),
  wholesaleCurrencyCode: Nullable(Type.String()),
  promo: Nullable(Type.Record(Type.String(), Type.Unknown())),
  checkoutHoldId: Nullable(Type.String()),
  detectedCountryCode: Nullable(Type.String()),
  countryMismatch: Type.Boolean(),
  deferredReveal: Type.Boolean(),
  revealedAt: Nullable(Type.String()),
  contractDate: Type.String(),
  createdAt: Type.String(),
});

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'orders' } as const;
const pull = { auth: 'seller', scopes: ['seller:keys:pull'], rateClass: 'orders' } as const;

/** One page of GET /orders (the console's order search adds skuCode and origin). */
export async function orderListPage(
  ctx: AppContext,
  actor: SellerActor,
  q: Omit<OrderListQuery, 'from' | 'to' | 'before'> & { from?: string; to?: string; cursor?: string },
  urlFor: (cursor: string) => string,
) {
  const before = q.cursor ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string]) : undefined;
  const rows = await listOrders(ctx, actor, {
    orderReference: q.orderReference,
    skuCode: q.skuCode,
    origin: q.origin,
    from: q.from ? instantOf(q.from) : undefined,
    to: q.to ? instantOf(q.to) : undefined,
    before,
    limit: q.limit,
  });
  const hasMore = rows.length > q.limit;
  const pageRows = rows.slice(0, q.limit);
  const last = pageRows.at(-1)?.order;
  const nextCursor = hasMore && last ? encodeCursor([last.created_at, last.id]) : null;
  return {
    data: pageRows.map((r) => r.view),
    meta: {
      limit: q.limit,
      count: pageRows.length,
      hasMore,
      nextCursor,
      nextUrl: nextCursor ? urlFor(nextCursor) : null,
    },
  };
}

export function registerOrderReadRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/orders', {
    config: read,
    schema: {
      tags: ['checkout'],
      summary: 'Order aggregates, newest first (never plaintext keys); page with meta.nextCursor.',
      querystring: Type.Object({
        orderReference: Type.Optional(OrderReference),
        from: Type.Optional(DateTime),
        to: Type.Optional(DateTime),
        cursor: Type.Optional(Type.String({ maxLength: 500 })),
        limit: LimitQuery(100, 50),
      }),
      response: {
        200: Type.Object({ data: Type.Array(OrderAggregate), meta: PageMeta }),
        ...errorResponses(),
      },
    },
    handler: async (request) => orderListPage(ctx, actorOf(request), request.query, nextPageUrl(request.url)),
  });

  app.get('/orders/:orderReadableId', {
    config: read,
    schema: {
      tags: ['checkout'],
      summary: 'One order aggregate by its readable id (ord_...) or uuid.',
      params: Type.Object({ orderReadableId: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Object({ data: OrderAggregate }), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await getOrder(ctx, actorOf(request), request.params.orderReadableId),
    }),
  });

  app.post('/orders/:orderId/fulfill', {
    config: { ...pull, idempotency: 'optional', carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary: 'Reveals the keys of a deferred order (immediateFulfilment: false), with activation.',
      params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) }),
      body: Type.Optional(Type.Object({}, { additionalProperties: false })),
      response: { 200: Type.Object({ data: FulfilledSchema }), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await revealOrder(ctx, actorOf(request), request.params.orderId),
    }),
  });

  app.post('/orders/recover-keys', {
    config: { ...pull, carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary: 'The live keys already sold under an orderReference; never pulls new inventory.',
      body: Type.Object({ orderReference: OrderReference }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          data: Type.Intersect([FulfilledSchema, Type.Object({ recovered: Type.Integer() })]),
        }),
        ...errorResponses(404),
      },
    },
    handler: async (request) => ({
      data: await recoverKeys(ctx, actorOf(request), request.body.orderReference),
    }),
  });
}
