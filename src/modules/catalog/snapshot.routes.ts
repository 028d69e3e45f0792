import { createGzip } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { sellerOf } from '../../http/request-context.js';
import { errorResponses } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { CatalogSnapshotSchema } from './catalog.schemas.js';
import { localeChain } from './locale.js';
import { acceptsGzip, matchesEtag, snapshotEtag, snapshotMeta, snapshotStream } from './snapshot.service.js';

const CACHE_CONTROL = 'private, max-age=300, s-maxage=300, stale-while-revalidate=600';
const VARY = 'Authorization, Accept-Language, Accept-Encoding';

const SNAPSHOT_HEADERS = {
  ETag: {
    type: 'string',
    description: 'Weak tag of this catalog state; send it back in If-None-Match to revalidate.',
  },
  'Cache-Control': { type: 'string', description: CACHE_CONTROL },
  Vary: { type: 'string', description: VARY },
};

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
        format: Type.Optional(
          Type.Union([Type.Literal('json'), Type.Literal('ndjson')], {
            description:
              '`json` (default): one `{meta, data[]}` document; `ndjson`: the meta on line 1, then one product per line.',
          }),
        ),
      }),
      response: {
        200: {
          description: 'The catalog snapshot (gzip-encoded when Accept-Encoding admits gzip).',
          headers: SNAPSHOT_HEADERS,
          content: {
            'application/json': { schema: CatalogSnapshotSchema },
            'application/x-ndjson': {
              schema: {
                type: 'string',
                description:
                  'Line 1: the meta of the JSON form (`format: ndjson`); then one product (as in `data[]`) per line.',
              },
            },
          },
        },
        304: { description: 'Not modified: the ETag still matches', type: 'null', headers: SNAPSHOT_HEADERS },
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const scope = sellerOf(request);
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
