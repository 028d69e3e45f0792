import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { sellerOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Nullable, Uuid } from '../../http/schemas.js';
import { registerArtifactRoute } from '../../http/signed-download.js';
import type { TypedApp } from '../../http/typed-app.js';
import { exportArtifact, exportStatus, startExport } from './exports.service.js';
import { localeChain } from './locale.js';

const ExportStatusSchema = Type.Object({
  exportId: Type.String(),
  status: Type.String({ description: 'pending, ready or failed' }),
  format: Type.Literal('ndjson'),
  compression: Type.Literal('gzip'),
  checksum: Nullable(Type.String({ description: 'lowercase hex SHA-256 of the artifact bytes' })),
  bytes: Nullable(Type.Integer()),
  totalProducts: Nullable(Type.Integer()),
  createdAt: DateTime,
  completedAt: Nullable(DateTime),
  expiresAt: Nullable(DateTime),
  downloadUrl: Nullable(Type.String()),
  downloadUrlExpiresAt: Nullable(DateTime),
  error: Nullable(Type.String()),
});

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'catalog' } as const;

export function registerExportRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/catalog/exports', {
    config: { ...read, idempotency: 'optional' },
    schema: {
      tags: ['catalog'],
      summary:
        'Starts an asynchronous export of the catalog as a gzip NDJSON artifact; catalog.export_ready announces it.',
      response: { 202: Type.Object({ exportId: Type.String(), status: Type.String() }), ...errorResponses() },
    },
    handler: async (request, reply) => {
      const scope = sellerOf(request);
      const [locale = 'en'] = localeChain(undefined, request.headers['accept-language']);
      reply.code(202);
      return startExport(ctx, scope, locale, request.log);
    },
  });

  app.get('/catalog/exports/:exportId', {
    config: { ...read, carriesSecret: true },
    schema: {
      tags: ['catalog'],
      summary:
        'Status, checksum, expiry and a short-lived signed download URL; 410 EXPORT_EXPIRED after the artifact TTL.',
      params: Type.Object({ exportId: Uuid }),
      response: { 200: Type.Object({ data: ExportStatusSchema }), ...errorResponses(404, 410) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      return { data: await exportStatus(ctx, scope, request.params.exportId) };
    },
  });

  registerArtifactRoute(app, {
    path: '/catalog/exports/:exportId/artifact',
    param: 'exportId',
    tag: 'catalog',
    contentType: 'application/gzip',
    description: 'application/gzip: NDJSON, first line the meta',
    fileName: (id) => `catalog-${id}.ndjson.gz`,
    load: (id, expires, signature) => exportArtifact(ctx, id, expires, signature),
  });
}
