import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { actorOf } from '../../http/request-context.js';
import { errorResponses, OrderReference, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { cancelPreorder } from './preorders/cancel.service.js';
import { cancelReservation } from './reservations/lifecycle.service.js';

export const ReleasedReservation = Type.Object({
  type: Type.Literal('reservation'),
  reservationId: Type.String(),
  orderReference: Type.String(),
  quantity: Type.Integer(),
  status: Type.Literal('released'),
});

export const CancelledPreorder = Type.Object({
  type: Type.Literal('preorder_cancelled'),
  orderId: Type.String(),
  orderReadableId: Type.String(),
  orderReference: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  cancelledAt: Type.String(),
});

const bothOrNeither = () =>
  fail('VALIDATION_FAILED', 'Send exactly one of reservationId and orderReference.', {
    issues: [
      {
        field: 'reservationId',
        in: 'body',
        message: 'send reservationId (a hot-drop reservation) or orderReference (a pre-order), not both',
        keyword: 'oneOf',
      },
    ],
  });

/**
 * POST /orders/cancel: `{reservationId}` releases a live hot-drop reservation (its
 * slots come back); `{orderReference}` cancels an accepted pre-order not yet converted at
 * release (its capacity returns to the allocation). Both emit `order.returned`.
 */
export function registerCancelRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/orders/cancel', {
    config: { auth: 'seller', scopes: ['seller:keys:pull'], rateClass: 'orders', idempotency: 'required' },
    schema: {
      tags: ['checkout'],
      summary:
        'Releases a live hot-drop reservation ({reservationId}) or cancels an accepted pre-order not yet converted ({orderReference}); the capacity comes back and order.returned is emitted.',
      body: Type.Object(
        { reservationId: Type.Optional(Uuid), orderReference: Type.Optional(OrderReference) },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({ data: Type.Union([ReleasedReservation, CancelledPreorder]) }),
        ...errorResponses(404, 409, 410),
      },
    },
    handler: async (request) => {
      const { reservationId, orderReference } = request.body;
      const actor = actorOf(request);
      if (reservationId !== undefined && orderReference === undefined) {
        const data = await cancelReservation(ctx, actor, reservationId);
        ctx.metrics.reservations.inc({ environment: actor.environment, outcome: 'released' });
        return { data };
      }
      if (orderReference !== undefined && reservationId === undefined) {
        return { data: await cancelPreorder(ctx, actor, orderReference) };
      }
      throw bothOrNeither();
    },
  });
}
