import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { sellerOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Nullable, OrderReference, Uuid } from '../../http/schemas.js';
import { registerArtifactRoute } from '../../http/signed-download.js';
import type { TypedApp } from '../../http/typed-app.js';
import { ActivityFilterQuery, activityFilterOf } from './activity.routes.js';
import { REPORT_TYPE } from './report-builds.js';
import { reportArtifact, reportStatus, startReport } from './reports.service.js';

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'finance' } as const;

export const ReportSchema = Type.Object({
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
      const scope = sellerOf(request);
      reply.code(202);
      return startReport(ctx, scope, activityFilterOf(request.body), request.log);
    },
  });

  app.get('/reports/:reportId', {
    config: { ...read, carriesSecret: true },
    schema: {
      tags: ['finance'],
      summary:
        'Status, row count, checksum and a short-lived signed download URL; 410 EXPORT_EXPIRED after 24 h.',
      params: Type.Object({ reportId: Uuid }),
      response: { 200: Type.Object({ data: ReportSchema }), ...errorResponses(404, 410) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      return { data: await reportStatus(ctx, scope, request.params.reportId) };
    },
  });

  registerArtifactRoute(app, {
    path: '/reports/:reportId/artifact',
    param: 'reportId',
    tag: 'finance',
    contentType: 'application/gzip',
    description: 'application/gzip: RFC 4180 CSV',
    fileName: (id) => `activity-${id}.csv.gz`,
    load: (id, expires, signature) => reportArtifact(ctx, id, expires, signature),
  });
}
