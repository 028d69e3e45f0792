import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import type { AppContext } from '../context.js';
import { installRequestObservability, type Listener } from '../observability/request-observability.js';
import { trackRequestsInFlight } from '../shutdown.js';
import { refuseUnknownInputs } from './closed-inputs.js';
import { installContractHooks } from './contract-hooks.js';
import { edgeServerOptions, installEdgeErrors, newRequestId } from './edge-errors.js';
import { installErrorHandling } from './error-handler.js';
import { isRememberedReplay } from './idempotency/idempotency.js';
import { installJsonBodyParser } from './input-limits.js';
import { installResponseHeaders } from './response-headers.js';
import { recordRouteTable } from './route-table.js';
import { ApiErrorSchema } from './schemas.js';
import { buildSerializerOncePerProcess } from './serializers.js';
import { installValidators } from './validation.js';

export const SELLER_PREFIX = '/api/seller/v1';
export const ADMIN_PREFIX = '/admin/v1';
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What the seller and the operator applications share: logger, request ids, limits, edge answers. */
export function fastifyOptions(ctx: AppContext): FastifyServerOptions {
  return {
    // `silent` means no logger at all: a silent pino still builds a child logger per request.
    logger: ctx.config.logLevel === 'silent' ? false : { level: ctx.config.logLevel },
    // One line per request is written by installRequestObservability, without URL or address.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: newRequestId,
    requestIdHeader: false,
    schemaController: { compilersFactory: { buildSerializer: buildSerializerOncePerProcess } },
    bodyLimit: BODY_LIMIT_BYTES,
    ...edgeServerOptions(ctx.config.publicUrl),
  };
}

/**
 * A Fastify application for one listener with the contract both share installed: validation,
 * the ApiError envelope (404/405 from this application's own routes), JSON input limits, the
 * contract hooks (auth, headers, idempotency), edge answers (a request arriving while the
 * application closes: 503 SERVICE_UNAVAILABLE, Connection: close), the request log line and metrics.
 */
export function createListenerApp(ctx: AppContext, listener: Listener) {
  const app = Fastify(fastifyOptions(ctx)).withTypeProvider<TypeBoxTypeProvider>();
  recordRouteTable(app);
  installResponseHeaders(app);
  app.addSchema(ApiErrorSchema);
  installValidators(app);
  refuseUnknownInputs(app);
  installErrorHandling(app, ctx.config.publicUrl);
  installJsonBodyParser(app, {
    answeredWithoutParsing: (request, text) => isRememberedReplay(ctx, request, text),
  });
  installContractHooks(app, ctx);
  installEdgeErrors(app, ctx.config.publicUrl);
  installRequestObservability(app, ctx.metrics, listener);
  trackRequestsInFlight(app);
  return app;
}
