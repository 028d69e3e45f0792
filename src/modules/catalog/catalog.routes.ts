import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { cachedPage } from '../../http/page-cache.js';
import { decodeCursor, encodeCursor, LimitQuery, nextPageUrl, page } from '../../http/pagination.js';
import { principalOf, sellerOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf, isoOf } from '../../lib/clock.js';
import { catalogChangesOf } from '../events/index.js';
import { findProduct } from './catalog.repo.js';
import {
  ChangesResponse,
  ChecksumSchema,
  PricingReleaseSchema,
  ProductDetailResponse,
  ProductListResponse,
} from './catalog.schemas.js';
import { catalogChecksum } from './catalog-read.service.js';
import { localeChain } from './locale.js';
import {
  PartnerFilter,
  ProductListQuerystring,
  parseProductQuery,
  publisherFilter,
} from './product-query.js';
import { listProducts, productDetail, productPricing } from './products-read.service.js';

const read = { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'catalog' } as const;
/** Product pages are served from a 2-second per-process cache: polling sellers share one build. */
const PRODUCT_PAGE_TTL_MS = 2_000;
const Locale = Type.String({ pattern: '^[a-zA-Z]{2}(-[a-zA-Z]{2})?$' });

/** A legacy cursor is the id of the last product served: continue after its position. */
async function legacyCursorPosition(ctx: AppContext, productId: string): Promise<[number, string]> {
  const product = await findProduct(ctx.db, productId);
  if (!product) {
    throw fail('VALIDATION_FAILED', 'cursor names no product.', {
      issues: [{ field: 'cursor', in: 'query', message: 'unknown legacy cursor', keyword: 'format' }],
    });
  }
  return [product.created_at, product.id];
}

/** The page-cache key of a product list page: the seller, its environment, the URL and language. */
function productPageKey(request: FastifyRequest): string {
  const { companyId, environment } = principalOf(request);
  return `products:${companyId}:${environment}:${request.url}:${request.headers['accept-language'] ?? ''}`;
}

export function registerCatalogRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/products', {
    config: { ...read, pageCacheKey: productPageKey },
    schema: {
      tags: ['catalog'],
      summary: 'Visible products, newest first, with optional availability and pricing expansions.',
      querystring: ProductListQuerystring,
      response: { 200: ProductListResponse, ...errorResponses() },
    },
    handler: async (request, reply) => {
      const scope = sellerOf(request);
      return cachedPage(
        ctx,
        reply,
        productPageKey(request),
        PRODUCT_PAGE_TTL_MS,
        async () => {
          const query = parseProductQuery(request.query, request.headers['accept-language']);
          if (query.legacyCursorId) query.list.before = await legacyCursorPosition(ctx, query.legacyCursorId);
          const rows = query.statusExcludesAll ? [] : await listProducts(ctx, scope, query.list);
          const result = page(rows, query.list.limit, (r) => r.cursorKey, nextPageUrl(request.url));
          return {
            data: result.data.map(({ cursorKey: _key, ...row }) => row),
            meta: {
              ...result.meta,
              localePreference: query.list.chain,
              warnings: query.deprecatedStatus ? [query.deprecatedStatus] : [],
            },
          };
        },
        request.cachedPage,
      );
    },
  });

  app.get('/products/:productId', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary:
        'One visible product with editions, releases, SKUs and pricing (expand=base: the product only).',
      params: Type.Object({ productId: Uuid }),
      querystring: Type.Object({
        expand: Type.Optional(Type.Literal('base')),
        locale: Type.Optional(Locale),
      }),
      response: { 200: ProductDetailResponse, ...errorResponses(404) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      const chain = localeChain(request.query.locale, request.headers['accept-language']);
      return productDetail(ctx, scope, request.params.productId, chain, request.query.expand === 'base');
    },
  });

  app.get('/products/:productId/pricing', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary: 'Territory list prices per release and country.',
      params: Type.Object({ productId: Uuid }),
      querystring: Type.Object({
        country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}(,[A-Za-z]{2})*$', maxLength: 1000 })),
        expand: Type.Optional(Type.Literal('product')),
      }),
      response: { 200: Type.Object({ data: Type.Array(PricingReleaseSchema) }), ...errorResponses(404) },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      const countries = request.query.country?.toUpperCase().split(',') ?? null;
      return {
        data: await productPricing(
          ctx,
          scope,
          request.params.productId,
          countries,
          request.query.expand === 'product',
        ),
      };
    },
  });

  app.get('/catalog/checksum', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary: 'Integrity digest of the visible catalog (sha256-sorted-product-rows-v1), to verify a mirror.',
      querystring: PartnerFilter,
      response: { 200: Type.Object({ data: ChecksumSchema }), ...errorResponses() },
    },
    handler: async (request) => {
      const scope = sellerOf(request);
      return { data: await catalogChecksum(ctx, scope, publisherFilter(request.query)) };
    },
  });

  app.get('/catalog/changes', {
    config: read,
    schema: {
      tags: ['catalog'],
      summary:
        'Catalog change records in order; follow meta.nextCursor (it wins over since). Kept for at least 30 days.',
      querystring: Type.Object({
        since: Type.Optional(DateTime),
        limit: LimitQuery(5000, 500),
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      response: { 200: ChangesResponse, ...errorResponses() },
    },
    handler: async (request) => {
      const { sellerId, environment } = sellerOf(request);
      const { since, limit, cursor } = request.query;
      const afterSeq = cursor ? (decodeCursor(cursor, ['number'])[0] as number) : undefined;
      const rows = await catalogChangesOf(
        ctx.db,
        sellerId,
        environment,
        { afterSeq, since: since ? instantOf(since) : undefined },
        limit + 1,
      );
      const result = page(rows, limit, (r) => [r.seq], nextPageUrl(request.url));
      const last = result.data.at(-1);
      return {
        data: {
          changes: result.data.map((r) => ({
            productId: r.product_id,
            type: r.type,
            occurredAt: isoOf(r.occurred_at),
            changedFields: JSON.parse(r.changed_fields) as string[],
          })),
        },
        // Even the last page hands back a cursor, so a poller resumes exactly where it stopped.
        meta: {
          ...result.meta,
          nextCursor: result.meta.nextCursor ?? (last ? encodeCursor([last.seq]) : (cursor ?? null)),
        },
      };
    },
  });
}
