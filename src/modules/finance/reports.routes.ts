import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/request-context.js';
import { ApiErrorRef, DateTime, errorResponses, Nullable, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { OrderReference } from '../checkout/checkout.schemas.js';
import { sellerScope } from '../sandbox/sandbox.service.js';
import { ActivityFilterQuery, activityFilterOf } from './activity.routes.js';
import { REPORT_TYPE, reportArtifact, reportStatus, startReport } from './reports.service.js';

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'finance' } as const;

const ReportSchema = Type.Object({
  reportId: Type.String(),
  reportType: Type.String(),
  status: Type.String({ description: 'pending, ready or failed' }),
  format: Type.Literal('csv'),
  compression: Type.Literal('gzip'),
  filters: Type.Record(Type.String(), Type.Unknown()),
  rows: Nullable(Type.Integer()),
  bytes: Nullable(Type.Integer()),
  checksum: Nullable(Type.String({ description: 'lowercase hex SHA-256 of the artifact bytes' })),
  createdAt: DateTime,
  readyAt: Nullable(DateTime),
  expiresAt: Nullable(DateTime),
  downloadUrl: Nullable(Type.String()),
  error: Nullable(Type.String()),
});

/** Asynchronous reports: the activity as gzip CSV, announced by report.ready. */
export function registerReportRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/reports', {
    config: { ...read, idempotency: 'optional' },
    schema: {
      tags: ['finance'],
      summary:
        'Starts an activity export (gzip RFC 4180 CSV of GET /activity with the same filters); report.ready announces it.',
      body: Type.Object(
        {
          reportType: Type.Optional(Type.Literal(REPORT_TYPE)),
          from: Type.Optional(DateTime),
          to: Type.Optional(DateTime),
          orderReference: Type.Optional(OrderReference),
          ...ActivityFilterQuery,
        },
        { additionalProperties: false },
      ),
      response: {
        202: Type.Object({ reportId: Type.String(), reportType: Type.String(), status: Type.String() }),
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const scope = await sellerScope(ctx, principalOf(request));
      reply.code(202);
      return startReport(ctx, scope, activityFilterOf(request.body), request.log);
    },
  });

  app.get('/reports/:reportId', {
    config: read,
    schema: {
      tags: ['finance'],
      summary:
        'Status, row count, checksum and a short-lived signed download URL; 410 EXPORT_EXPIRED after 24 h.',
      params: Type.Object({ reportId: Uuid }),
      response: { 200: Type.Object({ data: ReportSchema }), ...errorResponses(404, 410) },
    },
    handler: async (request) => {
      const scope = await sellerScope(ctx, principalOf(request));
      return { data: await reportStatus(ctx, scope, request.params.reportId) };
    },
  });

  app.get('/reports/:reportId/artifact', {
    config: { auth: 'none' },
    schema: {
      tags: ['finance'],
      summary: 'The artifact behind a signed download URL (no API key: the signature is the credential).',
      security: [],
      params: Type.Object({ reportId: Uuid }),
      querystring: Type.Object({
        expires: Type.Integer({ minimum: 0 }),
        signature: Type.String({ maxLength: 100 }),
      }),
      response: {
        200: { description: 'application/gzip: RFC 4180 CSV' },
        403: ApiErrorRef,
        404: ApiErrorRef,
        410: ApiErrorRef,
        422: ApiErrorRef,
      },
    },
    handler: async (request, reply) => {
      const { expires, signature } = request.query;
      const artifact = await reportArtifact(ctx, request.params.reportId, expires, signature);
      return reply
        .type('application/gzip')
        .header('Content-Disposition', `attachment; filename="activity-${request.params.reportId}.csv.gz"`)
        .send(artifact);
    },
  });
}
