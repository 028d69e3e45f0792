import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { RequestLogRecorder } from './request-log.recorder.js';
import { listRequestLog } from './request-log.service.js';

export const RequestLogQuery = Type.Object(
  {
    requestId: Type.Optional(
      Type.String({ maxLength: 64, description: 'The requestId of an error body or X-Request-Id header.' }),
    ),
    status: Type.Optional(
      Type.String({
        pattern: '^([1-5]xx|[1-5][0-9]{2})$',
        description: 'A status (`404`) or a class (`4xx`).',
      }),
    ),
    code: Type.Optional(Type.String({ pattern: '^[A-Z_]{2,64}$', description: 'An ApiError code.' })),
    keyId: Type.Optional(
      Type.String({ maxLength: 64, description: 'The id of the key that made the request.' }),
    ),
    route: Type.Optional(
      Type.String({ maxLength: 200, description: 'A route pattern, such as `/api/seller/v1/orders/:id`.' }),
    ),
    since: Type.Optional({ ...DateTime, description: 'Requests at or after this time.' }),
    until: Type.Optional({ ...DateTime, description: 'Requests before this time.' }),
    cursor: Type.Optional(
      Type.String({ maxLength: 200, description: 'The `meta.nextCursor` of the previous page.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, description: 'Rows per page (default 50).' }),
    ),
  },
  { additionalProperties: false },
);

export const RequestLogEntry = Type.Object({
  requestId: Type.String(),
  at: DateTime,
  environment: Type.String(),
  keyId: Type.String(),
  keyName: Type.String(),
  method: Type.String(),
  route: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  errorCode: Nullable(Type.String()),
  error: Nullable(Type.Object({}, { additionalProperties: true })),
  durationMs: Type.Number(),
  contractDate: Type.String(),
});

/** GET /request-logs: the request log for terminals, the same rows the console shows. */
export function registerRequestLogRoutes(app: TypedApp, ctx: AppContext, recorder: RequestLogRecorder): void {
  app.get('/request-logs', {
    config: { auth: 'seller', actsForSeller: false, scopes: ['seller:keys:write', 'seller:account:manage'] },
    schema: {
      tags: ['request-logs'],
      summary:
        "This environment's API requests of the last 14 days, newest first: the ApiError body of each failure, never a body of a success, a token or an address.",
      querystring: RequestLogQuery,
      response: {
        200: Type.Object({
          data: Type.Array(RequestLogEntry),
          meta: Type.Object({ nextCursor: Nullable(Type.String()) }),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const page = await listRequestLog(ctx, principalOf(request), request.query, recorder);
      return { data: page.data, meta: { nextCursor: page.nextCursor } };
    },
  });
}
