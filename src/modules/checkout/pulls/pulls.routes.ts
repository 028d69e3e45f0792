import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { actorOf, principalOf } from '../../../http/request-context.js';
import { errorResponses } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { zipFiles } from '../../../lib/zip.js';
import { factsOf } from '../checkout.routes.js';
import { FulfilledSchema, PullBody } from '../checkout.schemas.js';
import { pullKeys } from './pulls.service.js';

const config = {
  auth: 'seller',
  scopes: ['seller:keys:pull'],
  rateClass: 'orders',
  idempotency: 'optional',
} as const;

export function registerPullRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/keys/pull', {
    config: { ...config, carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary: 'Pulls keys into custody against an allocation or SKU, with the contract checks of an order.',
      body: PullBody,
      response: { 200: Type.Object({ data: FulfilledSchema }), ...errorResponses(404, 409, 503) },
    },
    handler: async (request) => {
      const { view, replayed } = await pullKeys(
        ctx,
        actorOf(request),
        request.body,
        'pull',
        factsOf(request),
      );
      if (!replayed) ctx.metrics.recordFulfilment(principalOf(request).environment, 'pull', view);
      return { data: view };
    },
  });

  app.post('/keys/export', {
    config: { ...config, carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary:
        'Like /keys/pull, answered as a ZIP holding keys.txt (one key per line); pre-orders and deferred pulls answer JSON.',
      body: PullBody,
      response: {
        200: {
          description: 'application/zip (keys.txt) when delivered now; JSON (reserved counts) otherwise',
          headers: {
            'X-Order-Reference': { type: 'string', description: 'With the ZIP: the order reference.' },
            'X-Order-Id': { type: 'string', description: 'With the ZIP: the order id.' },
          },
          content: {
            'application/zip': { schema: { type: 'string', format: 'binary' } },
            'application/json': { schema: Type.Object({ data: FulfilledSchema }) },
          },
        },
        ...errorResponses(404, 409, 503),
      },
    },
    handler: async (request, reply) => {
      const { view, replayed } = await pullKeys(
        ctx,
        actorOf(request),
        request.body,
        'export',
        factsOf(request),
      );
      if (!replayed) ctx.metrics.recordFulfilment(principalOf(request).environment, 'export', view);
      if (view.keys.length === 0) return { data: view };
      const archive = zipFiles([
        { name: 'keys.txt', content: `${view.keys.join('\n')}\n`, modifiedAt: new Date(ctx.clock.now()) },
      ]);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="keys-${view.orderReadableId}.zip"`)
        .header('x-order-reference', view.orderReference)
        .header('x-order-id', view.orderId)
        .send(archive);
    },
  });
}
