import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { principalOf, sellerOf } from '../../http/request-context.js';
import { errorResponses, Nullable, Uuid } from '../../http/schemas.js';
import { isMagicSkuCode } from '../../http/simulate.js';
import type { TypedApp } from '../../http/typed-app.js';
import { visibleProductIds } from '../catalog/index.js';
import { availabilityOf } from './availability.service.js';

const Country = Type.String({ pattern: '^[A-Za-z]{2}$' });

export const AvailabilityItem = Type.Object({
  available: Type.Integer(),
  allocationRemaining: Type.Integer(),
  inventoryAvailable: Type.Integer(),
  dedicatedAvailable: Type.Integer(),
  sharedPoolAvailable: Type.Integer(),
  allocationId: Nullable(Type.String()),
  allocationReadableId: Nullable(Type.String()),
  skuId: Type.String(),
  skuCode: Type.String(),
  maxFulfillableQuantity: Type.Integer(),
  canFulfill: Type.Optional(Type.Boolean()),
  cannotFullyFulfill: Type.Boolean(),
  allOrNothingWillFail: Type.Boolean(),
  partialFulfillmentExpected: Type.Boolean({ deprecated: true, description: 'alias of cannotFullyFulfill' }),
  requestable: Type.Boolean(),
  backordered: Type.Boolean(),
  backorderEligible: Type.Boolean(),
  backorderIneligibleReason: Nullable(Type.String()),
  sellable: Type.Boolean(),
  readinessBlockers: Type.Array(Type.String()),
  country: Nullable(Type.String()),
  sellableInCountry: Type.Optional(Type.Boolean()),
  blockedReason: Nullable(Type.String()),
});

const invalid = (field: string, message: string) =>
  fail('VALIDATION_FAILED', `${field}: ${message}`, {
    issues: [{ field, in: 'query', message, keyword: 'availability' }],
  });

export function registerAvailabilityRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/availability', {
    config: { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'catalog' },
    schema: {
      tags: ['catalog'],
      summary:
        'What an all-or-nothing order could pull now: one SKU (skuCode or skuId) or up to 50 (skuCodes).',
      querystring: Type.Object({
        skuCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        skuId: Type.Optional(Uuid),
        skuCodes: Type.Optional(Type.String({ minLength: 1, maxLength: 3300 })),
        quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
        countryCode: Type.Optional(Country),
        country: Type.Optional(Country),
      }),
      response: {
        200: Type.Union([
          Type.Object({ data: AvailabilityItem }),
          Type.Object({
            data: Type.Array(AvailabilityItem),
            meta: Type.Object({ notFound: Type.Array(Type.String()) }),
          }),
        ]),
        ...errorResponses(404),
      },
    },
    handler: async (request) => {
      const q = request.query;
      if (q.countryCode && q.country && q.countryCode.toUpperCase() !== q.country.toUpperCase()) {
        throw invalid('country', 'differs from countryCode; send one of them');
      }
      const country = q.countryCode ?? q.country;
      const single = q.skuCode !== undefined || q.skuId !== undefined;
      if (single === (q.skuCodes !== undefined))
        throw invalid('skuCode', 'send skuCode or skuId (single), or skuCodes (bulk)');
      if (q.skuCode !== undefined && q.skuId !== undefined)
        throw invalid('skuId', 'send skuCode or skuId, not both');
      // Codes are trimmed in both modes; a code repeated in bulk is answered (and counted) once.
      const skuCode = q.skuCode?.trim();
      if (skuCode === '') throw invalid('skuCode', 'must not be blank');
      const codes = [
        ...new Set(
          q.skuCodes
            ?.split(',')
            .map((c) => c.trim())
            .filter(Boolean),
        ),
      ];
      if (!single && (codes.length === 0 || codes.length > 50))
        throw invalid('skuCodes', 'between 1 and 50 distinct comma-separated codes');
      if (!single && q.quantity !== undefined) throw invalid('quantity', 'only in single mode');
      const principal = principalOf(request);
      const magic = [skuCode, ...codes].find((c) => c !== undefined && isMagicSkuCode(c));
      if (principal.environment === 'production' && magic) {
        throw fail(
          'SANDBOX_MAGIC_VALUE_REJECTED',
          `${magic} is a sandbox magic SKU; production keys cannot use it.`,
          { skuCode: magic },
        );
      }
      const scope = sellerOf(request);
      const visible = await visibleProductIds(ctx.db, scope.sellerId, scope.environment, ctx.clock.now());
      const query = { quantity: q.quantity, country };
      if (single) {
        const item = await availabilityOf(ctx, scope, { code: skuCode, id: q.skuId }, query, visible);
        if (!item) throw fail('NOT_FOUND', `SKU ${skuCode ?? q.skuId} is not in your catalog.`);
        return { data: item };
      }
      const items = await Promise.all(
        codes.map((code) => availabilityOf(ctx, scope, { code }, query, visible)),
      );
      return {
        data: items.filter((i) => i !== null),
        meta: { notFound: codes.filter((_, i) => items[i] === null) },
      };
    },
  });
}
