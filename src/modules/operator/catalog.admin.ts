import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import {
  createEdition,
  createProduct,
  createRelease,
  createSku,
  relateProducts,
  setReferenceRate,
  setSkuDelisted,
  setTerritoryPrice,
  updateProduct,
  updateRelease,
} from '../catalog/index.js';
import { adminResponses, adminView, isoToMs } from './admin-view.js';
import { inTransaction } from './partners.admin.js';
import {
  IdParams,
  PriceBody,
  ProductBody,
  ProductPatchBody,
  ReleaseBody,
  ReleasePatchBody,
  SkuBody,
} from './schemas.js';

const admin = { auth: 'admin' } as const;

/** Products, editions, relations, releases, SKUs, territory prices and reference rates. */
export function registerCatalogAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/products', {
    config: admin,
    schema: { tags: ['catalog'], body: ProductBody, response: adminResponses(201) },
    handler: async (request, reply) => {
      const { publisherCompanyId, environment, preorderStart, preorderEnd, ...rest } = request.body;
      const input = { ...rest, preorderStart: isoToMs(preorderStart), preorderEnd: isoToMs(preorderEnd) };
      reply.code(201);
      return {
        data: adminView(
          await inTransaction(ctx, (trx) =>
            createProduct(ctx, trx, publisherCompanyId, environment ?? 'production', input),
          ),
        ),
      };
    },
  });

  app.patch('/products/:id', {
    config: admin,
    schema: {
      tags: ['catalog'],
      summary: 'Edits a product; archiving (now or scheduled with archiveAt) delists it for sellers.',
      params: IdParams,
      body: ProductPatchBody,
      response: adminResponses(),
    },
    handler: async (request) => {
      const { preorderStart, preorderEnd, archiveAt, ...rest } = request.body;
      const patch = {
        ...rest,
        preorderStart: isoToMs(preorderStart),
        preorderEnd: isoToMs(preorderEnd),
        archiveAt: isoToMs(archiveAt),
      };
      return {
        data: adminView(await inTransaction(ctx, (trx) => updateProduct(ctx, trx, request.params.id, patch))),
      };
    },
  });

  app.post('/products/:id/editions', {
    config: admin,
    schema: {
      tags: ['catalog'],
      params: IdParams,
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      return {
        data: await inTransaction(ctx, (trx) =>
          createEdition(ctx, trx, request.params.id, request.body.name),
        ),
      };
    },
  });

  app.post('/products/:id/relations', {
    config: admin,
    schema: {
      tags: ['catalog'],
      params: IdParams,
      body: Type.Object({
        type: OneOf(['requires', 'includes', 'upgrades', 'edition_of']),
        targetProductId: Uuid,
      }),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      const { type, targetProductId } = request.body;
      return {
        data: await inTransaction(ctx, (trx) =>
          relateProducts(ctx, trx, request.params.id, type, targetProductId),
        ),
      };
    },
  });

  app.post('/products/:id/releases', {
    config: admin,
    schema: { tags: ['catalog'], params: IdParams, body: ReleaseBody, response: adminResponses(201) },
    handler: async (request, reply) => {
      reply.code(201);
      const input = { ...request.body, releaseDate: isoToMs(request.body.releaseDate) };
      return {
        data: adminView(await inTransaction(ctx, (trx) => createRelease(ctx, trx, request.params.id, input))),
      };
    },
  });

  app.patch('/releases/:id', {
    config: admin,
    schema: {
      tags: ['catalog'],
      summary: 'Advances state (announced, available), moves the date, edits exclusions or delists.',
      params: IdParams,
      body: ReleasePatchBody,
      response: adminResponses(),
    },
    handler: async (request) => {
      const patch = { ...request.body, releaseDate: isoToMs(request.body.releaseDate) };
      return {
        data: adminView(await inTransaction(ctx, (trx) => updateRelease(ctx, trx, request.params.id, patch))),
      };
    },
  });

  app.post('/releases/:id/skus', {
    config: admin,
    schema: { tags: ['catalog'], params: IdParams, body: SkuBody, response: adminResponses(201) },
    handler: async (request, reply) => {
      reply.code(201);
      return {
        data: adminView(
          await inTransaction(ctx, (trx) => createSku(ctx, trx, request.params.id, request.body)),
        ),
      };
    },
  });

  app.patch('/skus/:id', {
    config: admin,
    schema: {
      tags: ['catalog'],
      params: IdParams,
      body: Type.Object({ delisted: Type.Boolean() }),
      response: adminResponses(),
    },
    handler: async (request) => ({
      data: adminView(
        await inTransaction(ctx, (trx) => setSkuDelisted(ctx, trx, request.params.id, request.body.delisted)),
      ),
    }),
  });

  app.put('/releases/:id/prices', {
    config: admin,
    schema: {
      tags: ['catalog'],
      summary:
        'Sets, removes (listPriceCents null) or schedules (future effectiveAt) a territory list price.',
      params: IdParams,
      body: PriceBody,
      response: adminResponses(),
    },
    handler: async (request) => {
      const input = { ...request.body, effectiveAt: isoToMs(request.body.effectiveAt) ?? undefined };
      return {
        data: await inTransaction(ctx, (trx) => setTerritoryPrice(ctx, trx, request.params.id, input)),
      };
    },
  });

  app.put('/reference-rates/:currency', {
    config: admin,
    schema: {
      tags: ['catalog'],
      summary: 'Reference exchange rate for SRP floors: units of the currency per US dollar.',
      params: Type.Object({ currency: Type.String({ pattern: '^[A-Z]{3}$' }) }),
      body: Type.Object({ unitsPerUsd: Type.String({ maxLength: 24 }) }),
      response: adminResponses(),
    },
    handler: async (request) => ({
      data: await setReferenceRate(ctx, request.params.currency, request.body.unitsPerUsd, ctx.db),
    }),
  });
}
