import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { errorResponses } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { actorOf } from '../checkout.routes.js';
import { OrderReference } from '../checkout.schemas.js';
import { cancelPreorder } from './cancel.service.js';

const config = {
  auth: 'seller',
  scopes: ['seller:keys:pull'],
  rateClass: 'orders',
  idempotency: 'required',
} as const;

const CancelledPreorder = Type.Object({
  type: Type.Literal('preorder_cancelled'),
  orderId: Type.String(),
  orderReadableId: Type.String(),
  orderReference: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  cancelledAt: Type.String(),
});

export function registerPreorderCancelRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/orders/cancel', {
    config,
    schema: {
      tags: ['checkout'],
      summary:
        'Cancels an accepted pre-order not yet converted at release; its capacity returns to the allocation and order.returned is emitted.',
      body: Type.Object({ orderReference: OrderReference }, { additionalProperties: false }),
      response: { 200: Type.Object({ data: CancelledPreorder }), ...errorResponses(404, 409) },
    },
    handler: async (request) => ({
      data: await cancelPreorder(ctx, await actorOf(ctx, request), request.body.orderReference),
    }),
  });
}
