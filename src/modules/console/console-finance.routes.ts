import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { decodeCursor, LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { DateTime, OrderReference, PageMeta, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import {
  ActivityEntrySchema,
  ActivityFilterQuery,
  ApiSalesQuery,
  activityFilterOf,
  activityPage,
  apiSalesPage,
  getInvoice,
  InvoiceSchema,
  listInvoices,
  Month,
  ReportSchema,
  reportCsv,
  reportStatus,
  SaleLineSchema,
  StatementsResponse,
  startReport,
  statements,
} from '../finance/index.js';
import { consoleAnswer, consoleData } from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSellerSession, secretAnswer } from './console-http.js';

const open = { config: { auth: 'none' } } as const;

const ActivityFilter = {
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  orderReference: Type.Optional(OrderReference),
  ...ActivityFilterQuery,
};

/**
 * The Finance pages (owners and finance): the seller API's finance services with the session's
 * company and environment, so every figure is the API's own. Reads answer exactly as the API.
 */
export function registerConsoleFinanceRoutes(app: TypedApp, ctx: AppContext): void {
  const base = `${CONSOLE_API}/finance`;
  const scopeOf = async (request: FastifyRequest) =>
    (await requireSellerSession(ctx, request, { capability: 'finance:read' })).seller;

  app.get(
    `${base}/statements`,
    {
      ...open,
      schema: {
        ...consoleAnswer(StatementsResponse),
        querystring: Type.Object(
          { from: Type.Optional(Month), to: Type.Optional(Month) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => statements(ctx, await scopeOf(request), request.query),
  );

  app.get(
    `${base}/api-sales`,
    {
      ...open,
      schema: {
        ...consoleAnswer(Type.Object({ data: Type.Array(SaleLineSchema), meta: PageMeta })),
        querystring: Type.Object(ApiSalesQuery.properties, { additionalProperties: false }),
      },
    },
    async (request) => apiSalesPage(ctx, await scopeOf(request), request.query, nextPageUrl(request.url)),
  );

  app.get(
    `${base}/activity`,
    {
      ...open,
      schema: {
        ...consoleAnswer(Type.Object({ data: Type.Array(ActivityEntrySchema), meta: PageMeta })),
        querystring: Type.Object(
          {
            ...ActivityFilter,
            cursor: Type.Optional(Type.String({ maxLength: 500 })),
            limit: LimitQuery(100, 50),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const q = request.query;
      const before = q.cursor
        ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string])
        : undefined;
      const filter = { ...(await scopeOf(request)), ...activityFilterOf(q), before };
      return activityPage(ctx, filter, q.limit, nextPageUrl(request.url));
    },
  );

  /** The CSV export: the API's report job (POST /reports) with the page's filters. */
  app.post(
    `${base}/reports`,
    {
      ...open,
      schema: {
        hide: true,
        response: {
          202: Type.Object({ reportId: Type.String(), reportType: Type.String(), status: Type.String() }),
        },
        body: Type.Object(ActivityFilter, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const started = await startReport(
        ctx,
        await scopeOf(request),
        activityFilterOf(request.body),
        request.log,
      );
      return reply.code(202).send(started);
    },
  );

  app.get(
    `${base}/reports/:reportId`,
    { ...secretAnswer, schema: { ...consoleData(ReportSchema), params: Type.Object({ reportId: Uuid }) } },
    async (request) => ({ data: await reportStatus(ctx, await scopeOf(request), request.params.reportId) }),
  );

  /** The report's CSV uncompressed, for a spreadsheet that does not open gzip (the API link serves gzip). */
  app.get(
    `${base}/reports/:reportId/csv`,
    {
      ...open,
      schema: {
        ...consoleAnswer(Type.String({ description: 'The activity CSV, uncompressed (text/csv).' })),
        params: Type.Object({ reportId: Uuid }),
      },
    },
    async (request, reply) => {
      const { reportId } = request.params;
      const csv = await reportCsv(ctx, await scopeOf(request), reportId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="activity-${reportId}.csv"`)
        .send(csv.toString('utf8'));
    },
  );

  app.get(
    `${base}/invoices`,
    {
      ...open,
      schema: {
        ...consoleAnswer(
          Type.Object({ data: Type.Array(InvoiceSchema), meta: Type.Object({ count: Type.Integer() }) }),
        ),
      },
    },
    async (request) => {
      const data = await listInvoices(ctx, await scopeOf(request));
      return { data, meta: { count: data.length } };
    },
  );

  app.get(
    `${base}/invoices/:invoiceId`,
    { ...open, schema: { ...consoleData(InvoiceSchema), params: Type.Object({ invoiceId: Uuid }) } },
    async (request) => ({ data: await getInvoice(ctx, await scopeOf(request), request.params.invoiceId) }),
  );
}
