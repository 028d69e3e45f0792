import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { decodeCursor, LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { sellerOf } from '../../http/request-context.js';
import {
  DateOnly,
  DateTime,
  errorResponses,
  OneOf,
  OrderReference,
  PageMeta,
  Uuid,
} from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf } from '../../lib/clock.js';
import { activityCsv, activityPage } from './activity.service.js';
import { ActivityEntrySchema, TransactionSchema } from './finance.schemas.js';
import type { ActivityKind } from './finance.table.js';
import { transactionsPage } from './transactions.service.js';
import { ROUTE_CLASSES, usage } from './usage.service.js';
import type { UsageCounter } from './usage-counter.js';

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'finance' } as const;
const KIND = '(sale|refund|chargeback|pull|reveal|replacement)';

const SpanQuery = {
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  orderReference: Type.Optional(OrderReference),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: LimitQuery(100, 50),
};

export const ActivityFilterQuery = {
  kinds: Type.Optional(
    Type.String({ pattern: `^${KIND}(,${KIND})*$`, description: 'comma-separated kinds, e.g. sale,refund' }),
  ),
  promoId: Type.Optional(Uuid),
  counterparty: Type.Optional(Uuid),
};

interface SpanParams {
  from?: string;
  to?: string;
  orderReference?: string;
  cursor?: string;
  kinds?: string;
  promoId?: string;
  counterparty?: string;
}

/** The activity filter of a request's query (also what a report records). */
export function activityFilterOf(q: SpanParams) {
  return {
    from: q.from ? instantOf(q.from) : undefined,
    to: q.to ? instantOf(q.to) : undefined,
    orderReference: q.orderReference,
    kinds: q.kinds ? ([...new Set(q.kinds.split(','))] as ActivityKind[]) : undefined,
    promoId: q.promoId,
    counterparty: q.counterparty,
  };
}

const beforeOf = (cursor: string | undefined) =>
  cursor ? (decodeCursor(cursor, ['number', 'string']) as [number, string]) : undefined;

/** GET /activity, GET /transactions and GET /usage (scope seller:products:read). */
export function registerActivityRoutes(app: TypedApp, ctx: AppContext, counter: UsageCounter): void {
  app.get('/activity', {
    config: read,
    schema: {
      tags: ['finance'],
      summary:
        'Settlement activity entries, newest first; format=csv streams every matching entry as RFC 4180 CSV.',
      querystring: Type.Object({
        ...SpanQuery,
        ...ActivityFilterQuery,
        format: Type.Optional(OneOf(['json', 'csv'])),
      }),
      response: {
        200: {
          content: {
            'application/json': {
              schema: Type.Object({ data: Type.Array(ActivityEntrySchema), meta: PageMeta }),
            },
            'text/csv': {
              schema: { type: 'string', description: 'header row, then one record per entry (CRLF)' },
            },
          },
        },
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const filter = { ...sellerOf(request), ...activityFilterOf(q), before: beforeOf(q.cursor) };
      if (q.format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="activity.csv"')
          .send(activityCsv(ctx, filter));
      }
      return activityPage(ctx, filter, q.limit, nextPageUrl(request.url));
    },
  });

  app.get('/transactions', {
    config: read,
    schema: {
      tags: ['finance'],
      summary:
        'The wholesale ledger: one row per key movement (sale, pull, refund, chargeback), signed, newest first.',
      querystring: Type.Object(SpanQuery),
      response: {
        200: Type.Object({ data: Type.Array(TransactionSchema), meta: PageMeta }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const q = request.query;
      const filter = { ...sellerOf(request), ...activityFilterOf(q), before: beforeOf(q.cursor) };
      return transactionsPage(ctx, filter, q.limit, nextPageUrl(request.url));
    },
  });

  app.get('/usage', {
    config: read,
    schema: {
      tags: ['finance'],
      summary:
        'Per UTC day: API calls per route class and keys taken; meta names the sandbox rate limits (default the last 7 days, at most 31).',
      querystring: Type.Object({ from: Type.Optional(DateOnly), to: Type.Optional(DateOnly) }),
      response: {
        200: Type.Object({
          data: Type.Array(
            Type.Object({
              date: Type.String(),
              apiCalls: Type.Record(Type.String(), Type.Integer(), {
                description: `${ROUTE_CLASSES.join(', ')} and total`,
              }),
              keysPulled: Type.Integer(),
            }),
          ),
          meta: Type.Object({
            from: Type.String(),
            to: Type.String(),
            rateLimits: Type.Record(Type.String(), Type.Unknown()),
          }),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      await counter.flush(ctx.db);
      return usage(ctx, sellerOf(request), request.query);
    },
  });
}
