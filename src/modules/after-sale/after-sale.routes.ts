import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { decodeCursor, nextPageUrl, page } from '../../http/pagination.js';
import { actorOf } from '../../http/request-context.js';
import { errorResponses, PageMeta } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf } from '../../lib/clock.js';
import { apiAuditBy } from '../checkout/index.js';
import { RefundBody, RefundListQuery, RefundSchema, ReturnBody, ReturnSchema } from './after-sale.schemas.js';
import { refundView } from './refund-view.js';
import { createRefund, getRefund, listRefunds } from './refunds.service.js';
import { returnKeys } from './returns.service.js';

const write = {
  auth: 'seller',
  scopes: ['seller:refunds:write'],
  rateClass: 'orders',
  idempotency: 'optional',
} as const;
const read = { auth: 'seller', scopes: ['seller:refunds:read'], rateClass: 'orders' } as const;

/** Refunds, chargebacks and key returns (docs/after-sale.md). */
export function registerAfterSaleRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/refunds', {
    config: write,
    schema: {
      tags: ['after-sale'],
      summary:
        'Declares a refund or chargeback of delivered keys: quarantines them and reverses their sale lines, once per reference.',
      body: RefundBody,
      response: { 200: Type.Object({ data: RefundSchema }), ...errorResponses(404, 409) },
    },
    handler: async (request) => {
      const { view } = await createRefund(ctx, actorOf(request), apiAuditBy(request), request.body);
      return { data: view };
    },
  });

  app.get('/refunds', {
    config: read,
    schema: {
      tags: ['after-sale'],
      summary: 'Refund and chargeback adjustments, newest first; page with meta.nextCursor.',
      querystring: RefundListQuery,
      response: { 200: Type.Object({ data: Type.Array(RefundSchema), meta: PageMeta }), ...errorResponses() },
    },
    handler: async (request) => {
      const q = request.query;
      const rows = await listRefunds(ctx, actorOf(request), {
        orderReference: q.orderReference,
        type: q.type,
        from: q.from ? instantOf(q.from) : undefined,
        to: q.to ? instantOf(q.to) : undefined,
        before: q.cursor ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string]) : undefined,
        limit: q.limit,
      });
      const result = page(rows, q.limit, (r) => [r.created_at, r.id], nextPageUrl(request.url));
      return { data: result.data.map(refundView), meta: result.meta };
    },
  });

  app.get('/refunds/:refundId', {
    config: read,
    schema: {
      tags: ['after-sale'],
      summary: 'One refund or chargeback adjustment.',
      params: Type.Object({ refundId: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Type.Object({ data: RefundSchema }), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await getRefund(ctx, actorOf(request), request.params.refundId),
    }),
  });

  app.post('/keys/return', {
    config: { ...write, scopes: ['seller:keys:pull'] },
    schema: {
      tags: ['after-sale'],
      summary:
        'Hands keys back: never-revealed keys return to stock, revealed keys to quarantine; money moves where the refund policy allows.',
      body: ReturnBody,
      response: { 200: Type.Object({ data: ReturnSchema }), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await returnKeys(ctx, actorOf(request), apiAuditBy(request), request.body),
    }),
  });
}
