import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf, principalOf } from '../../http/request-context.js';
import { errorResponses, Nullable, Warnings } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { auditActorOf } from '../audit/index.js';
import {
  ActivationSchema,
  FulfilledSchema,
  LinePriceFields,
  OrderBody,
  PreviewBody,
  SettlementSchema,
} from './checkout.schemas.js';
import { previewLine } from './line/preview.service.js';
import { placeBulk } from './orders/bulk.service.js';
import { placeOrder } from './orders/orders.service.js';

/** The API key behind a request, as the audit log names it. */
export const apiAuditBy = (request: FastifyRequest) => auditActorOf(principalOf(request));

export const factsOf = (request: FastifyRequest) => ({
  contractDate: request.contractDate,
  simulate: request.simulate,
  claim: request.idempotencyRecord,
});

const PreviewLine = Type.Object({
  skuCode: Type.String(),
  skuId: Type.String(),
  productId: Type.String(),
  allocationId: Type.String(),
  quantity: Type.Integer(),
  ...LinePriceFields,
  secondaryCurrency: Type.Boolean(),
  wholesaleUnitPriceCents: Nullable(Type.Integer()),
  wholesaleCurrencyCode: Nullable(Type.String()),
  canFulfill: Type.Boolean(),
  maxFulfillableQuantity: Type.Integer(),
  preorder: Type.Boolean(),
  activation: ActivationSchema,
  priceCommitmentToken: Type.Optional(Type.String()),
  priceCommitmentExpiresAt: Type.Optional(Type.String()),
  settlement: Type.Optional(SettlementSchema),
  detectedCountryCode: Type.Optional(Nullable(Type.String())),
  countryMismatch: Type.Optional(Type.Boolean()),
  warnings: Warnings,
});

const pull = { auth: 'seller', scopes: ['seller:keys:pull'], rateClass: 'orders' } as const;

export function registerCheckoutRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/orders/preview', {
    config: { auth: 'seller', scopes: ['seller:orders:preview', 'seller:keys:pull'], rateClass: 'orders' },
    schema: {
      tags: ['checkout'],
      summary:
        'Quotes a line as POST /orders would judge it: price to echo, commitment token, canFulfill, settlement. Changes nothing.',
      body: PreviewBody,
      response: {
        200: Type.Object({
          data: Type.Intersect([PreviewLine, Type.Object({ lines: Type.Array(PreviewLine) })]),
        }),
        ...errorResponses(404, 503),
      },
    },
    handler: async (request) => {
      const line = await previewLine(ctx, actorOf(request), request.body);
      return { data: { ...line, lines: [line] } };
    },
  });

  app.post('/orders', {
    config: { ...pull, idempotency: 'optional', carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary:
        'Places an all-or-nothing order and returns its plaintext keys, after every checkout rule passes; a known orderReference replays.',
      body: OrderBody,
      response: { 200: Type.Object({ data: FulfilledSchema }), ...errorResponses(404, 409, 412, 503) },
    },
    handler: async (request) => {
      const { view, replayed } = await placeOrder(ctx, actorOf(request), request.body, factsOf(request));
      if (!replayed) ctx.metrics.recordFulfilment(principalOf(request).environment, 'order', view);
      return { data: view };
    },
  });

  app.post('/orders/bulk', {
    config: { ...pull, idempotency: 'optional', carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary:
        'A multi-SKU cart. strict (default true under 2026-09-01, false under 2026-04-29): all lines or none.',
      body: Type.Object(
        {
          items: Type.Array(OrderBody, { minItems: 1, maxItems: 50 }),
          strict: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          data: Type.Object({
            items: Type.Array(
              Type.Object({
                index: Type.Integer(),
                orderReference: Type.String(),
                status: Type.String({ description: 'fulfilled or failed' }),
                replayed: Type.Optional(Type.Boolean()),
                data: Type.Optional(FulfilledSchema),
                error: Type.Optional(
                  Type.Object({
                    index: Type.Integer(),
                    orderReference: Type.String(),
                    code: Type.String(),
                    status: Type.Integer(),
                    message: Type.String(),
                    details: Type.Record(Type.String(), Type.Unknown()),
                  }),
                ),
              }),
            ),
          }),
          meta: Type.Object({
            contractDate: Type.String(),
            strict: Type.Boolean(),
            fulfilled: Type.Integer(),
            failed: Type.Integer(),
          }),
        }),
        ...errorResponses(404, 409, 503),
      },
    },
    handler: async (request) => {
      const strict = request.body.strict ?? request.contractDate === '2026-09-01';
      const items = await placeBulk(ctx, actorOf(request), request.body.items, strict, factsOf(request));
      const environment = principalOf(request).environment;
      for (const item of items) {
        if (item.data && !item.replayed) ctx.metrics.recordFulfilment(environment, 'bulk_line', item.data);
      }
      const fulfilled = items.filter((i) => i.status === 'fulfilled').length;
      return {
        data: { items },
        meta: { contractDate: request.contractDate, strict, fulfilled, failed: items.length - fulfilled },
      };
    },
  });
}
