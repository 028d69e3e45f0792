import type { FastifyInstance, RouteOptions } from 'fastify';

/** Written on every answer of every listener, the edge's own raw answers included. */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;
export const NO_STORE = 'no-store';

/**
 * Two headers every answer starts with: `nosniff`, so that no browser reads an answer as a type
 * other than the one it declares, and `Cache-Control: no-store`, so that nothing keeps an answer
 * unless its route says how it may be kept (the catalog snapshot, the docs bundle, the console's
 * hashed assets set their own). A route declaring `carriesSecret` is no-store whatever its
 * handler set, and drops any ETag: a secret is never kept, nor revalidated.
 */
export function installResponseHeaders(app: FastifyInstance): void {
  // Callback style, and first of the onRequest hooks: a hook that refuses the request later
  // still answers with both headers.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff').header('cache-control', NO_STORE);
    done();
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!(route.config as { carriesSecret?: true } | undefined)?.carriesSecret) return;
    route.onSend = [
      ...[route.onSend ?? []].flat(),
      (_request, reply, payload, done) => {
        reply.header('cache-control', NO_STORE).removeHeader('etag');
        done(null, payload);
      },
    ];
  });
}
