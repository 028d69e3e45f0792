import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { type ApiError, fail } from './errors.js';
import type { TypedApp } from './typed-app.js';

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

const isJson = (contentType: string | undefined): boolean =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/** What a route that reads JSON, or reads no body at all, answers to a body it cannot take. */
export function bodyRefusal(request: FastifyRequest, takesBody: boolean): ApiError | null {
  if (!hasBody(request)) return null;
  if (!takesBody) {
    const message = 'this call takes no body; send none';
    return fail('VALIDATION_FAILED', `body (root): ${message}`, {
      issues: [{ in: 'body', field: '(root)', keyword: 'noBody', message }],
    });
  }
  if (!isJson(request.headers['content-type']))
    return fail('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
  return null;
}

/**
 * Routes under `prefix` read a JSON body, or none: any other content type answers 415 and a body
 * sent to a route without one answers 422, before the body is read. A plain-text or form body is
 * what a cross-site page can send without asking first, so it never reaches a handler.
 */
export function acceptJsonBodiesOnly(app: TypedApp, prefix: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(prefix)) return;
    const takesBody = route.schema?.body !== undefined;
    const refuse = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) =>
      done(bodyRefusal(request, takesBody) ?? undefined);
    route.onRequest = [refuse, ...[route.onRequest ?? []].flat()];
  });
}
