import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { listDeliveries, redeliverEvent } from '../webhooks/index.js';
import { adminResponses } from './admin-view.js';

const admin = { auth: 'admin' } as const;

/** Webhook deliveries for operators: what is stuck or failed, and replaying one event. */
export function registerWebhookAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/webhooks/deliveries', {
    config: admin,
    schema: {
      tags: ['webhooks'],
      summary:
        "A company's deliveries, most recently changed first; without status, those not yet succeeded.",
      querystring: Type.Object({
        companyId: Uuid,
        status: Type.Optional(OneOf(['pending', 'held', 'failed', 'succeeded'] as const)),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
        limit: LimitQuery(100, 50),
      }),
      response: { ...adminResponses(200), 200: Type.Object({ data: Type.Any(), meta: Type.Any() }) },
    },
    handler: async (request) => listDeliveries(ctx, request.query, nextPageUrl(request.url)),
  });

  app.post('/webhooks/replay', {
    config: admin,
    schema: {
      tags: ['webhooks'],
      summary: 'Delivers one event to one endpoint of its company again, as a new delivery due now.',
      body: Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 100 }), endpointId: Uuid }),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await redeliverEvent(ctx, null, request.body.eventId, request.body.endpointId) };
    },
  });
}
