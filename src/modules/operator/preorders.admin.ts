import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { failPreorder, orderForOperator } from '../checkout/index.js';
import { adminResponses } from './admin-view.js';

/**
 * The publisher cancels an accepted pre-order it can no longer honour: the pre-order fails at
 * once (`order.failed`, reasonCode `PREORDER_CANCELLED_BY_PUBLISHER`), its capacity released.
 */
export function registerPreorderAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/preorders/:orderId/cancel', {
    config: { auth: 'admin' },
    schema: {
      tags: ['orders'],
      summary: "Cancels an accepted pre-order on the publisher's behalf: it fails with order.failed.",
      params: Type.Object({ orderId: Uuid }),
      response: { ...adminResponses(), 409: adminResponses()[404] },
    },
    handler: async (request) => {
      const { orderId } = request.params;
      const order = await orderForOperator(ctx.db, orderId);
      if (!order) throw fail('NOT_FOUND', `No order ${orderId}.`);
      if (!(await failPreorder(ctx, orderId, 'PREORDER_CANCELLED_BY_PUBLISHER'))) {
        throw fail('ORDER_NOT_CANCELLABLE', `Order ${order.order_reference} is not an accepted pre-order.`, {
          orderId,
          delivery: order.delivery,
        });
      }
      return { data: { orderId, orderReference: order.order_reference, delivery: 'failed' } };
    },
  });
}
