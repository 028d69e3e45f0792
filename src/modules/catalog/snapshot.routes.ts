import { createGzip } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/request-context.js';
import { errorResponses } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { sellerScope } from '../sandbox/sandbox.service.js';
import { localeChain } from './locale.js';
import { acceptsGzip, matchesEtag, snapshotEtag, snapshotMeta, snapshotStream } from './snapshot.service.js';

const CACHE_CONTROL = 'private, max-age=300, s-maxage=300, stale-while-revalidate=600';
const VARY = 'Authorization, Accept-Language, Accept-Encoding';

export function registerSnapshotRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/catalog/snapshot', {
    config: {
      auth: 'seller',
      scopes: ['seller:products:read'],
      rateClass: 'catalog',
      rateBucket: 'read-cached',
    },
    schema: {
      tags: ['catalog'],
      summary:
        'The whole visible catalog with availability and pricing, streamed (json or ndjson, gzip on request); revalidate with If-None-Match.',
      querystring: Type.Object({
        format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('ndjson')])),
      }),
      response: {
        200: {
          description:
            'CatalogSnapshot: json `{meta, data[]}`, or ndjson whose first line is the meta stamped `format: ndjson`',
        },
        304: { description: 'Not modified: the ETag still matches', type: 'null' },
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const scope = await sellerScope(ctx, principalOf(request));
      const format = request.query.format ?? 'json';
      const chain = localeChain(undefined, request.headers['accept-language']);
      const gzip = acceptsGzip(request.headers['accept-encoding']);
      const meta = await snapshotMeta(ctx, scope);
      const etag = snapshotEtag(meta);
      reply.header('etag', etag).header('cache-control', CACHE_CONTROL).header('vary', VARY);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply.type(
        format === 'ndjson' ? 'application/x-ndjson; charset=utf-8' : 'application/json; charset=utf-8',
      );
      const body = snapshotStream(ctx, scope, meta, format, chain);
      if (!gzip) return reply.send(body);
      reply.header('content-encoding', 'gzip');
      return reply.send(body.pipe(createGzip()));
    },
  });
}
