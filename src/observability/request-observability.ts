import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The ApiError code of a failed reply (set where the envelope is rendered), for logs and metrics. */
    errorCode: string | null;
  }
}

/** Which listener answered: the seller port or the operator port (ADMIN_PORT). */
export type Listener = 'seller' | 'operator';

/** A request that matched no route is labelled once, so unknown paths cannot grow the label set. */
const UNMATCHED = '(unmatched)';

/**
 * One log line and the HTTP series per answered request. The line carries the request id
 * (pino's `reqId`), route template, status, error code, duration, and the calling company and
 * key id when a seller key authenticated: never the token, the URL's query, a body, or an IP
 * (docs/operations.md).
 */
export function installRequestObservability(
  app: FastifyInstance,
  metrics: Metrics,
  listener: Listener,
): void {
  app.decorateRequest('errorCode', null);
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    const labels = { listener, method: request.method, route, status };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, seconds);
    if (request.errorCode) metrics.httpErrors.inc({ listener, code: request.errorCode, status });
    const principal = request.principal;
    request.log.info(
      {
        listener,
        method: request.method,
        route,
        status,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        ...(request.errorCode ? { errorCode: request.errorCode } : {}),
        ...(principal
          ? { companyId: principal.companyId, keyId: principal.keyId, environment: principal.environment }
          : {}),
      },
      'request',
    );
    done();
  });
}
