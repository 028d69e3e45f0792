import { type Static, Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { decodeCursor, LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { sellerOf } from '../../http/request-context.js';
import {
  CurrencyCode,
  DateTime,
  errorResponses,
  Nullable,
  OneOf,
  OrderReference,
  PageMeta,
  Uuid,
} from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf } from '../../lib/clock.js';
import { getApiSale, listApiSales } from './api-sales.service.js';
import {
  CurrencyTotalsSchema,
  InvoiceSchema,
  Month,
  SaleLineSchema,
  StatementLineSchema,
} from './finance.schemas.js';
import { getInvoice, listInvoices } from './invoices.service.js';
import { statements, summary } from './statements.service.js';

const finance = { auth: 'seller', scopes: ['seller:finance:read'], rateClass: 'finance' } as const;

export const ApiSalesQuery = Type.Object({
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  orderReference: Type.Optional(OrderReference),
  entryType: Type.Optional(OneOf(['sale', 'sale_reversal'])),
  currencyCode: Type.Optional(CurrencyCode),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: LimitQuery(100, 50),
});

/** One page of GET /finance/api-sales (the console's Sales page answers the same). */
/** GET /finance/statements (and the console's Statements page). */
export const StatementsResponse = Type.Object({
  data: Type.Array(
    Type.Intersect([StatementLineSchema, Type.Object({ invoiceId: Nullable(Type.String()) })]),
  ),
  meta: Type.Object({ from: Type.String(), to: Type.String(), count: Type.Integer() }),
});

export function apiSalesPage(
  ctx: AppContext,
  scope: { sellerId: string; environment: string },
  q: Static<typeof ApiSalesQuery>,
  urlFor: (cursor: string) => string,
) {
  return listApiSales(
    ctx,
    {
      ...scope,
      from: q.from ? instantOf(q.from) : undefined,
      to: q.to ? instantOf(q.to) : undefined,
      orderReference: q.orderReference,
      entryType: q.entryType,
      currencyCode: q.currencyCode,
      before: q.cursor ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string]) : undefined,
      limit: q.limit,
    },
    urlFor,
  );
}

/** Finance reads (scope seller:finance:read): api-sales, statements, summary, invoices. */
export function registerFinanceRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/finance/api-sales', {
    config: finance,
    schema: {
      tags: ['finance'],
      summary: 'Sale lines (sales and their reversals), newest first; page with meta.nextCursor.',
      querystring: ApiSalesQuery,
      response: {
        200: Type.Object({ data: Type.Array(SaleLineSchema), meta: PageMeta }),
        ...errorResponses(),
      },
    },
    handler: async (request) => apiSalesPage(ctx, sellerOf(request), request.query, nextPageUrl(request.url)),
  });

  app.get('/finance/api-sales/:transactionId', {
    config: finance,
    schema: {
      tags: ['finance'],
      summary: 'One sale line by its transactionId.',
      params: Type.Object({ transactionId: Uuid }),
      response: { 200: Type.Object({ data: SaleLineSchema }), ...errorResponses(404) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      return { data: await getApiSale(ctx, scope, request.params.transactionId) };
    },
  });

  app.get('/finance/statements', {
    config: finance,
    schema: {
      tags: ['finance'],
      summary:
        'Per UTC calendar month and sale currency: gross, refunded, reinstated, net, counts and wholesale owed; a closed month names its invoice.',
      querystring: Type.Object({ from: Type.Optional(Month), to: Type.Optional(Month) }),
      response: {
        200: StatementsResponse,
        ...errorResponses(),
      },
    },
    handler: async (request) => statements(ctx, sellerOf(request), request.query),
  });

  app.get('/finance/summary', {
    config: finance,
    schema: {
      tags: ['finance'],
      summary: 'Totals per sale currency for [from, to); defaults to the current month so far.',
      querystring: Type.Object({ from: Type.Optional(DateTime), to: Type.Optional(DateTime) }),
      response: {
        200: Type.Object({
          data: Type.Object({ from: DateTime, to: DateTime, currencies: Type.Array(CurrencyTotalsSchema) }),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const q = request.query;
      return summary(ctx, sellerOf(request), {
        from: q.from ? instantOf(q.from) : undefined,
        to: q.to ? instantOf(q.to) : undefined,
      });
    },
  });

  app.get('/finance/invoices', {
    config: finance,
    schema: {
      tags: ['finance'],
      summary: 'Invoices of closed months, newest first: each the frozen statement of its month.',
      response: {
        200: Type.Object({ data: Type.Array(InvoiceSchema), meta: Type.Object({ count: Type.Integer() }) }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const data = await listInvoices(ctx, sellerOf(request));
      return { data, meta: { count: data.length } };
    },
  });

  app.get('/finance/invoices/:invoiceId', {
    config: finance,
    schema: {
      tags: ['finance'],
      summary: 'One invoice document.',
      params: Type.Object({ invoiceId: Uuid }),
      response: { 200: Type.Object({ data: InvoiceSchema }), ...errorResponses(404) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      return { data: await getInvoice(ctx, scope, request.params.invoiceId) };
    },
  });
}
