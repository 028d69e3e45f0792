import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/request-context.js';
import { ApiErrorRef, DateTime, errorResponses, Nullable, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { sellerScope } from '../sandbox/sandbox.service.js';
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
      const scope = await sellerScope(ctx, principalOf(request));
      const [locale = 'en'] = localeChain(undefined, request.headers['accept-language']);
      reply.code(202);
      return startExport(ctx, scope, locale, request.log);
    },
  });

  app.get('/catalog/exports/:exportId', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary:
        'Status, checksum, expiry and a short-lived signed download URL; 410 EXPORT_EXPIRED after the artifact TTL.',
      params: Type.Object({ exportId: Uuid }),
      response: { 200: Type.Object({ data: ExportStatusSchema }), ...errorResponses(404, 410) },
    },
    handler: async (request) => {
      const scope = await sellerScope(ctx, principalOf(request));
      return { data: await exportStatus(ctx, scope, request.params.exportId) };
    },
  });

  app.get('/catalog/exports/:exportId/artifact', {
    config: { auth: 'none' },
    schema: {
      tags: ['catalog'],
      summary: 'The artifact behind a signed download URL (no API key: the signature is the credential).',
      security: [],
      params: Type.Object({ exportId: Uuid }),
      querystring: Type.Object({
        expires: Type.Integer({ minimum: 0 }),
        signature: Type.String({ maxLength: 100 }),
      }),
      response: {
        200: { description: 'application/gzip: NDJSON, first line the meta' },
        403: ApiErrorRef,
        404: ApiErrorRef,
        410: ApiErrorRef,
        422: ApiErrorRef,
      },
    },
    handler: async (request, reply) => {
      const { expires, signature } = request.query;
      const artifact = await exportArtifact(ctx, request.params.exportId, expires, signature);
      return reply
        .type('application/gzip')
        .header('Content-Disposition', `attachment; filename="catalog-${request.params.exportId}.ndjson.gz"`)
        .send(artifact);
    },
  });
}
