import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { errorResponses, Uuid } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { actorOf } from '../checkout.routes.js';
import { cancelReservation } from './lifecycle.service.js';

/** POST /orders/cancel, the reservation form: `{reservationId}` releases a live reservation. */
export function registerCancelRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/orders/cancel', {
    config: { auth: 'seller', scopes: ['seller:keys:pull'], rateClass: 'orders', idempotency: 'required' },
    schema: {
      tags: ['checkout'],
      summary: 'Releases a live hot-drop reservation (its slots come back) and emits order.returned.',
      body: Type.Object({ reservationId: Uuid }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          data: Type.Object({
            type: Type.Literal('reservation'),
            reservationId: Type.String(),
            orderReference: Type.String(),
            quantity: Type.Integer(),
            status: Type.Literal('released'),
          }),
        }),
        ...errorResponses(409, 410),
      },
    },
    handler: async (request) => ({
      data: await cancelReservation(ctx, await actorOf(ctx, request), request.body.reservationId),
    }),
  });
}
