import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { RequestLogRecorder } from './request-log.recorder.js';
import { listRequestLog } from './request-log.service.js';

export const RequestLogQuery = Type.Object(
  {
    requestId: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(Type.String({ pattern: '^([1-5]xx|[1-5][0-9]{2})$' })),
    code: Type.Optional(Type.String({ pattern: '^[A-Z_]{2,64}$' })),
    keyId: Type.Optional(Type.String({ maxLength: 64 })),
    route: Type.Optional(Type.String({ maxLength: 200 })),
    since: Type.Optional(DateTime),
    until: Type.Optional(DateTime),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  },
  { additionalProperties: false },
);

const RequestLogEntry = Type.Object({
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
    config: { auth: 'seller', scopes: ['seller:keys:write', 'seller:account:manage'] },
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
