import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { decodeCursor, LimitQuery, nextPageUrl, page } from '../../http/pagination.js';
import { PageMeta, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import {
  AllocationRequestSchema,
  AvailabilityItem,
  availabilityOf,
  listRequests,
  pageAllocations,
  requestIncrease,
  requestView,
} from '../allocations/index.js';
import { allocationFigures } from './allocation-figures.js';
import {
  ConsoleAllocationList,
  consoleAnswer,
  consoleCreated,
  consoleData,
  StockHistoryPoint,
} from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSellerSession } from './console-http.js';
import { hotDropState, stockHistory } from './stock-history.service.js';

const open = { config: { auth: 'none' } } as const;
const Cursor = Type.Optional(Type.String({ maxLength: 500 }));
const afterOf = (cursor: string | undefined) =>
  cursor ? (decodeCursor(cursor, ['number', 'string']) as [number, string]) : undefined;

/**
 * The allocations page: the seller API's allocation, request and availability services as the
 * signed-in user's company (each allocation with its availability figures), plus what only the
 * console shows (stock over time, hot-drop state).
 */
export function registerConsoleAllocationRoutes(app: TypedApp, ctx: AppContext): void {
  const scopeOf = async (
    request: Parameters<typeof requireSellerSession>[1],
    capability?: 'allocations:request',
  ) => (await requireSellerSession(ctx, request, capability ? { capability } : {})).seller;

  app.get(
    `${CONSOLE_API}/allocations`,
    {
      ...open,
      schema: {
        ...consoleAnswer(ConsoleAllocationList),
        querystring: Type.Object(
          { sellableOnly: Type.Boolean({ default: false }), limit: LimitQuery(100, 50), cursor: Cursor },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const q = request.query;
      const { items, keys } = await pageAllocations(ctx, scope.sellerId, scope.environment, {
        sellableOnly: q.sellableOnly,
        limit: q.limit,
        after: afterOf(q.cursor),
      });
      const keyOf = new Map(items.map((item, i) => [item, keys[i]!]));
      const result = page(items, q.limit, (item) => keyOf.get(item)!, nextPageUrl(request.url));
      const figuresOf = await allocationFigures(ctx, scope, result.data);
      const data = await Promise.all(
        result.data.map(async (item) => ({
          ...item,
          figures: figuresOf(item),
          hotDropState: item.hotDrop ? await hotDropState(ctx, item.id) : null,
        })),
      );
      return { data, meta: result.meta };
    },
  );

  app.get(
    `${CONSOLE_API}/allocations/requests`,
    {
      ...open,
      schema: {
        ...consoleAnswer(Type.Object({ data: Type.Array(AllocationRequestSchema), meta: PageMeta })),
        querystring: Type.Object(
          { limit: LimitQuery(100, 50), cursor: Cursor },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { sellerId, environment } = await scopeOf(request);
      const { limit, cursor } = request.query;
      const rows = await listRequests(ctx, sellerId, environment, limit, afterOf(cursor));
      const result = page(rows, limit, (r) => [r.created_at, r.id], nextPageUrl(request.url));
      return { data: result.data.map(requestView), meta: result.meta };
    },
  );

  app.post(
    `${CONSOLE_API}/allocations/requests`,
    {
      ...open,
      schema: {
        ...consoleCreated(AllocationRequestSchema),
        body: Type.Object(
          {
            grantId: Uuid,
            requestedQuantity: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
            declaredForecast: Type.Optional(Type.Integer({ minimum: 0 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const { sellerId, environment } = await scopeOf(request, 'allocations:request');
      return reply.code(201).send({ data: await requestIncrease(ctx, sellerId, environment, request.body) });
    },
  );

  app.get(
    `${CONSOLE_API}/skus/:skuId/stock`,
    {
      ...open,
      schema: {
        ...consoleData(
          Type.Object({ availability: AvailabilityItem, history: Type.Array(StockHistoryPoint) }),
        ),
        params: Type.Object({ skuId: Uuid }),
        querystring: Type.Object({}, { additionalProperties: false }),
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const availability = await availabilityOf(ctx, scope, { id: request.params.skuId }, {});
      if (!availability) throw fail('NOT_FOUND', `SKU ${request.params.skuId} is not in your catalog.`);
      const history = availability.allocationId
        ? await stockHistory(ctx, scope, availability.allocationId, availability.allocationRemaining)
        : [];
      return { data: { availability, history } };
    },
  );
}
