import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { validationIssues } from '../../http/error-handler.js';
import { fail } from '../../http/errors.js';
import { decodeCursor, LimitQuery, nextPageUrl, page } from '../../http/pagination.js';
import { sellerOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf } from '../../lib/clock.js';
import { listRequests, requestIncrease, requestView } from './allocation-requests.service.js';
import { AllocationRequestSchema, AllocationSchema, ListMeta } from './allocations.schemas.js';
import { pageAllocations, UPDATED_SINCE_OVERLAP_MS } from './allocations-read.service.js';

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'catalog' } as const;
const OVERLAP_WARNING = {
  code: 'UPDATED_SINCE_OVERLAP',
  message: `Rows changed up to ${UPDATED_SINCE_OVERLAP_MS / 1000} seconds before updatedSince are served too: upsert by id.`,
};

const BAD_REQUEST_FIELDS = new Set(['grantId', 'requestedQuantity', '(root)']);

export function registerAllocationRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/allocations', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary: 'Allocations with sellability, oldest change first; page with meta.nextCursor.',
      querystring: Type.Object({
        sellableOnly: Type.Boolean({ default: false }),
        limit: LimitQuery(100, 50),
        cursor: Type.Optional(Type.String({ maxLength: 500 })),
        updatedSince: Type.Optional(DateTime),
      }),
      response: {
        200: Type.Object({ data: Type.Array(AllocationSchema), meta: ListMeta }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const { sellerId, environment } = sellerOf(request);
      const q = request.query;
      const after = q.cursor ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string]) : undefined;
      const updatedSince = q.updatedSince ? instantOf(q.updatedSince) : undefined;
      const { items, keys } = await pageAllocations(ctx, sellerId, environment, {
        sellableOnly: q.sellableOnly,
        limit: q.limit,
        after,
        updatedSince,
      });
      const keyOf = new Map(items.map((item, i) => [item, keys[i]!]));
      const result = page(items, q.limit, (item) => keyOf.get(item)!, nextPageUrl(request.url));
      return {
        data: result.data,
        meta: { ...result.meta, warnings: updatedSince !== undefined ? [OVERLAP_WARNING] : [] },
      };
    },
  });

  app.get('/allocations/requests', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary: 'Your allocation increase requests, newest first.',
      querystring: Type.Object({
        limit: LimitQuery(100, 50),
        cursor: Type.Optional(Type.String({ maxLength: 500 })),
      }),
      response: {
        200: Type.Object({
          data: Type.Array(AllocationRequestSchema),
          meta: Type.Omit(ListMeta, ['warnings']),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const { sellerId, environment } = sellerOf(request);
      const { limit, cursor } = request.query;
      const after = cursor ? (decodeCursor(cursor, ['number', 'string']) as [number, string]) : undefined;
      const rows = await listRequests(ctx, sellerId, environment, limit, after);
      const result = page(rows, limit, (r) => [r.created_at, r.id], nextPageUrl(request.url));
      return { data: result.data.map(requestView), meta: result.meta };
    },
  });

  app.post('/allocations/requests', {
    config: { auth: 'seller', scopes: ['seller:keys:pull'], rateClass: 'catalog', idempotency: 'optional' },
    attachValidation: true,
    schema: {
      tags: ['catalog'],
      summary: 'Asks the publisher for more on a grant; auto-resolved where the publisher policy allows.',
      body: Type.Object({
        grantId: Uuid,
        requestedQuantity: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
        declaredForecast: Type.Optional(Type.Integer({ minimum: 0 })),
        publisherAvailableKeys: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
      response: { 200: Type.Object({ data: AllocationRequestSchema }), ...errorResponses() },
    },
    handler: async (request) => {
      if (request.validationError) {
        // An invalid grantId or requestedQuantity (or a body that is no object) is
        // 400 BAD_REQUEST; any other invalid field is the usual 422 VALIDATION_FAILED.
        const issues = validationIssues(request.validationError.validation ?? [], 'body');
        if (!issues.some((i) => BAD_REQUEST_FIELDS.has(i.field))) throw request.validationError;
        throw fail('BAD_REQUEST', `Invalid ${issues.map((i) => i.field).join(', ')}.`, { issues });
      }
      const { sellerId, environment } = sellerOf(request);
      return { data: await requestIncrease(ctx, sellerId, environment, request.body) };
    },
  });
}
