import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { actorOf, principalOf } from '../../../http/request-context.js';
import { errorResponses, Uuid } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { HoldBody, LinePriceFields } from '../checkout.schemas.js';
import { placeHold, releaseHold } from './holds.service.js';

const config = {
  auth: 'seller',
  scopes: ['seller:keys:pull'],
  rateClass: 'orders',
  idempotency: 'required',
} as const;

const HoldSchema = Type.Object({
  type: Type.Literal('checkout_hold'),
  holdId: Type.String(),
  expiresAt: Type.String(),
  expiresInSeconds: Type.Integer(),
  allocationId: Type.String(),
  maxFulfillableQuantity: Type.Integer(),
  quantity: Type.Integer(),
  skuCode: Type.String(),
  orderReference: Type.String(),
  ...LinePriceFields,
});

export function registerHoldRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/orders/hold', {
    config,
    schema: {
      tags: ['checkout'],
      summary:
        'Holds stock for a checkout (TTL default 30 min, clamped 1 min to 1 h); commit with POST /orders and checkoutHoldId.',
      body: HoldBody,
      response: { 200: Type.Object({ data: HoldSchema }), ...errorResponses(404, 409, 412, 503) },
    },
    handler: async (request) => {
      const hold = await placeHold(ctx, actorOf(request), request.body);
      ctx.metrics.holdsPlaced.inc({ environment: principalOf(request).environment });
      return { data: hold };
    },
  });

  app.delete('/orders/hold', {
    config,
    schema: {
      tags: ['checkout'],
      summary: 'Releases a live checkout hold; an ended hold is reported with the state it ended in.',
      body: Type.Object({ holdId: Uuid }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          data: Type.Object({ holdId: Type.String(), status: Type.String(), released: Type.Boolean() }),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) => ({
      data: await releaseHold(ctx, actorOf(request), request.body.holdId),
    }),
  });
}
