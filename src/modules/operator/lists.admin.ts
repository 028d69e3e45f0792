import { type TSchema, Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { decodeCursor, LimitQuery, nextPageUrl, page } from '../../http/pagination.js';
import { ApiErrorRef, CountryCode, OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { isoOrNull } from '../../lib/clock.js';
import { findRequests, operatorRequestView } from '../allocations/index.js';
import { keyView } from '../api-keys/index.js';
import { companyView, findCompany, toCompany } from '../companies/index.js';
import { poolView } from '../inventory/index.js';
import { adminView } from './admin-view.js';
import * as repo from './lists.repo.js';
import { IdParams } from './schemas.js';

const admin = { auth: 'admin' } as const;
const Environment = OneOf(['sandbox', 'production']);

/** The query of every operator list: its filters, `limit` (1-200, default 50) and `cursor`. */
const listQuery = <T extends Record<string, TSchema>>(filters: T) =>
  Type.Object({
    ...filters,
    limit: LimitQuery(200, 50),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  });

const listResponses = {
  200: Type.Object({
    data: Type.Array(Type.Any()),
    meta: Type.Object({
      limit: Type.Integer(),
      count: Type.Integer(),
      hasMore: Type.Boolean(),
      nextCursor: Type.Union([Type.String(), Type.Null()]),
      nextUrl: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
  401: ApiErrorRef,
  422: ApiErrorRef,
};

const windowOf = (query: { limit: number; cursor?: string }): repo.Window => ({
  after: query.cursor ? (decodeCursor(query.cursor, ['number', 'string']) as repo.Position) : null,
  take: query.limit + 1,
});

async function requireCompany(ctx: AppContext, id: string) {
  const company = await findCompany(ctx.db, id);
  if (!company) throw fail('NOT_FOUND', `No company ${id}.`);
  return company;
}

/**
 * What exists, newest first, a page at a time (`meta.nextCursor`): companies, key pools of a SKU,
 * a seller's allocations and a company's API keys (never a token). `sdapi ... list` reads these.
 */
export function registerListAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/companies', {
    config: admin,
    schema: {
      tags: ['companies'],
      summary: 'Companies, newest first; filter by kind and country.',
      querystring: listQuery({
        kind: Type.Optional(OneOf(['seller', 'publisher'])),
        country: Type.Optional(CountryCode),
      }),
      response: listResponses,
    },
    handler: async (request) => {
      const { kind, country } = request.query;
      const rows = await repo.listCompanies(ctx.db, { kind, country }, windowOf(request.query));
      const paged = page(rows, request.query.limit, repo.positionOf, nextPageUrl(request.url));
      return { ...paged, data: paged.data.map((row) => companyView(toCompany(row))) };
    },
  });

  app.get('/pools', {
    config: admin,
    schema: {
      tags: ['inventory'],
      summary: 'Key pools with their available keys, newest first; filter by SKU id or code and environment.',
      querystring: listQuery({
        skuId: Type.Optional(Uuid),
        skuCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        environment: Type.Optional(Environment),
      }),
      response: listResponses,
    },
    handler: async (request) => {
      const { skuId, skuCode, environment } = request.query;
      const rows = await repo.listPools(ctx.db, { skuId, skuCode, environment }, windowOf(request.query));
      const paged = page(rows, request.query.limit, repo.positionOf, nextPageUrl(request.url));
      const data = [];
      for (const row of paged.data) data.push({ ...(await poolView(ctx.db, row)), skuCode: row.sku_code });
      return { ...paged, data };
    },
  });

  app.get('/companies/:id/allocations', {
    config: admin,
    schema: {
      tags: ['allocations'],
      summary: "A seller's allocations (grants), newest first; filter by environment and status.",
      params: IdParams,
      querystring: listQuery({
        environment: Type.Optional(Environment),
        status: Type.Optional(OneOf(['active', 'paused', 'revoked'])),
      }),
      response: { ...listResponses, 404: ApiErrorRef },
    },
    handler: async (request) => {
      const { environment, status } = request.query;
      await requireCompany(ctx, request.params.id);
      const rows = await repo.listAllocations(
        ctx.db,
        { sellerCompanyId: request.params.id, environment, status },
        windowOf(request.query),
      );
      const paged = page(rows, request.query.limit, repo.positionOf, nextPageUrl(request.url));
      return { ...paged, data: paged.data.map((row) => adminView(row)) };
    },
  });

  app.get('/allocation-requests', {
    config: admin,
    schema: {
      tags: ['allocations'],
      summary:
        "Sellers' allocation increase requests, newest first; filter by status (pending: the ones waiting for a decision), seller and environment.",
      querystring: listQuery({
        status: Type.Optional(OneOf(['pending', 'approved', 'rejected'])),
        companyId: Type.Optional(Uuid),
        environment: Type.Optional(Environment),
      }),
      response: listResponses,
    },
    handler: async (request) => {
      const { status, companyId, environment } = request.query;
      const { after, take } = windowOf(request.query);
      const rows = await findRequests(
        ctx.db,
        companyId ?? null,
        environment ?? null,
        after ?? undefined,
        take,
        status,
      );
      const paged = page(rows, request.query.limit, repo.positionOf, nextPageUrl(request.url));
      return { ...paged, data: paged.data.map(operatorRequestView) };
    },
  });

  app.get('/companies/:id/keys', {
    config: admin,
    schema: {
      tags: ['companies'],
      summary: "A company's API keys (hint, scopes, allowlist; never the token), newest first.",
      params: IdParams,
      querystring: listQuery({
        environment: Type.Optional(Environment),
        includeRevoked: Type.Boolean({ default: false }),
      }),
      response: { ...listResponses, 404: ApiErrorRef },
    },
    handler: async (request) => {
      const { environment, includeRevoked } = request.query;
      await requireCompany(ctx, request.params.id);
      const rows = await repo.listApiKeys(
        ctx.db,
        { companyId: request.params.id, environment, includeRevoked },
        windowOf(request.query),
      );
      const paged = page(rows, request.query.limit, repo.positionOf, nextPageUrl(request.url));
      return {
        ...paged,
        data: paged.data.map((row) => ({
          ...keyView(row),
          expiresAt: isoOrNull(row.expires_at),
          createdAt: isoOrNull(row.created_at),
          rotatedAt: isoOrNull(row.rotated_at),
          revokedAt: isoOrNull(row.revoked_at),
          lastUsedAt: isoOrNull(row.last_used_at),
        })),
      };
    },
  });
}
