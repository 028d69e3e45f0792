import type { FastifyInstance } from 'fastify';

const UNVERSIONED = '/api/seller/';
const CURRENT = '/api/seller/v1/';

/**
 * Unversioned `/api/seller/...` paths answer 308 to `/api/seller/v1/...` (method and body kept).
 * Clients may drop Authorization on redirect, so SDKs should call versioned paths directly.
 * Unknown paths under v1 fall through to the shared 404/405 handling.
 */
export function registerVersionRedirect(app: FastifyInstance): void {
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/api/seller/*',
    schema: { hide: true },
    config: { auth: 'none' },
    handler: (request, reply) => {
      const [path = '', query] = request.url.split(/\?(.*)/s, 2);
      if (path.startsWith(CURRENT) || /^\/api\/seller\/v\d+(\/|$)/.test(path)) return reply.callNotFound();
      const location = `${CURRENT}${path.slice(UNVERSIONED.length)}${query ? `?${query}` : ''}`;
      return reply.code(308).header('Location', location).send();
    },
  });
}
