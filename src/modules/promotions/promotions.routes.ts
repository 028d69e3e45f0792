import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { decodeCursor, LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { sellerOf } from '../../http/request-context.js';
import { DateOnly, DateTime, errorResponses, Nullable, OneOf, PageMeta, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { listPromotions, promotionCalendar, respondToPromotion } from './promotions-read.service.js';

const read = { auth: 'seller', scopes: ['seller:promotions:read'], rateClass: 'catalog' } as const;
const respond = { auth: 'seller', scopes: ['seller:promotions:respond'], rateClass: 'catalog' } as const;

const PromotionSchema = Type.Object({
  promotionId: Type.String(),
  kind: Type.String({ description: 'share (public promotion) or deal (aimed at this seller)' }),
  sourceType: Type.String({ description: 'promotion or deal, as checkout names it in promo.sourceType' }),
  publisherCompanyId: Type.String(),
  productId: Nullable(Type.String()),
  skuId: Nullable(Type.String()),
  discountPercent: Type.Integer(),
  startsAt: DateTime,
  endsAt: DateTime,
  state: Type.String({ description: 'scheduled, running or ended' }),
  requiresAcceptance: Type.Boolean(),
  response: Nullable(Type.String({ description: 'accepted, declined, or null before any answer' })),
  respondedAt: Nullable(DateTime),
  appliesToPrices: Type.Boolean({ description: 'while running, checkout applies it to your price' }),
});

/** Promotion shares and deals (scopes seller:promotions:read / :respond). */
export function registerPromotionRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/promotions', {
    config: read,
    schema: {
      tags: ['promotions'],
      summary: 'Shares and deals offered to you, running and scheduled (ended too with state=all), by start.',
      querystring: Type.Object({
        kind: Type.Optional(OneOf(['share', 'deal'])),
        state: Type.Optional(OneOf(['current', 'all'])),
        cursor: Type.Optional(Type.String({ maxLength: 500 })),
        limit: LimitQuery(100, 50),
      }),
      response: {
        200: Type.Object({ data: Type.Array(PromotionSchema), meta: PageMeta }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const q = request.query;
      const scope = sellerOf(request);
      const after = q.cursor ? (decodeCursor(q.cursor, ['number', 'string']) as [number, string]) : undefined;
      return listPromotions(
        ctx,
        scope,
        { kind: q.kind, includeEnded: q.state === 'all', after, limit: q.limit },
        nextPageUrl(request.url),
      );
    },
  });

  app.get('/promotions/calendar', {
    config: read,
    schema: {
      tags: ['promotions'],
      summary: 'Per UTC day, the promotions and deals running that day (default today and the next 30 days).',
      querystring: Type.Object({ from: Type.Optional(DateOnly), to: Type.Optional(DateOnly) }),
      response: {
        200: Type.Object({
          data: Type.Array(Type.Object({ date: Type.String(), promotions: Type.Array(PromotionSchema) })),
          meta: Type.Object({ from: Type.String(), to: Type.String(), count: Type.Integer() }),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) => promotionCalendar(ctx, sellerOf(request), request.query),
  });

  app.post('/promotions/:promotionId/respond', {
    config: { ...respond, idempotency: 'optional' },
    schema: {
      tags: ['promotions'],
      summary:
        'Accept or decline a share or a deal; a deal that needs acceptance applies to checkout prices once accepted.',
      params: Type.Object({ promotionId: Uuid }),
      body: Type.Object({ response: OneOf(['accept', 'decline']) }, { additionalProperties: false }),
      response: { 200: Type.Object({ data: PromotionSchema }), ...errorResponses(404) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      return {
        data: await respondToPromotion(ctx, scope, request.params.promotionId, request.body.response),
      };
    },
  });
}
