import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { CountryCode, Nullable, OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { computeSellability, setSkuShare, updateConnection } from '../allocations/index.js';
import { companyView, replaceFootprint, updateCompany } from '../companies/index.js';
import { FootprintBody } from '../identity/index.js';
import {
  acceptAmendment,
  addAgreement,
  connect,
  proposeAmendment,
  setAgreementStatus,
  supersedeAgreement,
} from '../partners/index.js';
import { adminResponses, adminView } from './admin-view.js';
import { AgreementBody, IdParams } from './schemas.js';

const admin = { auth: 'admin' } as const;
export const inTransaction = <T>(ctx: AppContext, fn: (trx: Executor) => Promise<T>) =>
  ctx.db.transaction().execute(fn);

/** Companies, partner connections, agreements and SKU shares. */
export function registerPartnerAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.patch('/companies/:id', {
    config: admin,
    schema: {
      tags: ['companies'],
      summary:
        'Edits country, production gates and capabilities (checkout holds, keyless, pre-order verification).',
      params: IdParams,
      body: Type.Object({
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        country: Type.Optional(Nullable(CountryCode)),
        productionAccess: Type.Optional(Type.Boolean()),
        apiAgreementSigned: Type.Optional(Type.Boolean()),
        checkoutHoldEnabled: Type.Optional(Type.Boolean()),
        keylessEnabled: Type.Optional(Type.Boolean()),
        preorderVerified: Type.Optional(Type.Boolean()),
        website: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }))),
        description: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
        logoUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 500 }))),
      }),
      response: adminResponses(),
    },
    handler: async (request) => ({
      data: companyView(await updateCompany(ctx, request.params.id, request.body)),
    }),
  });

  app.get('/companies/:id/sellability', {
    config: admin,
    schema: {
      tags: ['companies'],
      summary: "The seller's sellability of SKUs: the result every seller-facing read shows.",
      params: IdParams,
      querystring: Type.Object({
        skuIds: Type.String({ minLength: 1, maxLength: 2000, description: 'comma-separated SKU ids' }),
        environment: Type.Optional(OneOf(['production', 'sandbox'])),
      }),
      response: adminResponses(),
    },
    handler: async (request) => {
      const skuIds = request.query.skuIds.split(',').map((s) => s.trim());
      const result = await computeSellability(
        ctx,
        ctx.db,
        request.params.id,
        request.query.environment ?? 'production',
        skuIds,
      );
      return { data: [...result.values()] };
    },
  });

  app.put('/companies/:id/footprint', {
    config: admin,
    schema: {
      tags: ['companies'],
      params: IdParams,
      body: FootprintBody,
      response: adminResponses(),
    },
    handler: async (request) => ({ data: await replaceFootprint(ctx, request.params.id, request.body) }),
  });

  app.post('/connections', {
    config: admin,
    schema: {
      tags: ['partners'],
      summary: 'Connects a seller to a publisher (idempotent per pair and environment).',
      body: Type.Object({
        sellerCompanyId: Uuid,
        publisherCompanyId: Uuid,
        environment: Type.Optional(Type.Union([Type.Literal('production'), Type.Literal('sandbox')])),
        catalogShareMode: Type.Optional(Type.Union([Type.Literal('whole_catalog'), Type.Literal('per_sku')])),
        invoicingEnabled: Type.Optional(Type.Boolean()),
        selfBilling: Type.Optional(Type.Boolean()),
      }),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: adminView(await inTransaction(ctx, (trx) => connect(ctx, request.body, trx))) };
    },
  });

  app.patch('/connections/:id', {
    config: admin,
    schema: {
      tags: ['partners'],
      summary: 'Share mode and suspension change what the seller sees and can sell.',
      params: IdParams,
      body: Type.Object({
        catalogShareMode: Type.Optional(Type.Union([Type.Literal('whole_catalog'), Type.Literal('per_sku')])),
        sharesSuspended: Type.Optional(Type.Boolean()),
        invoicingEnabled: Type.Optional(Type.Boolean()),
        selfBilling: Type.Optional(Type.Boolean()),
      }),
      response: adminResponses(),
    },
    handler: async (request) => ({
      data: adminView(
        await inTransaction(ctx, (trx) => updateConnection(ctx, trx, request.params.id, request.body)),
      ),
    }),
  });

  app.post('/connections/:id/shares', {
    config: admin,
    schema: {
      tags: ['partners'],
      summary: 'Shares (active: true) or unshares one SKU with the connected seller.',
      params: IdParams,
      body: Type.Object({ skuId: Uuid, active: Type.Optional(Type.Boolean()) }),
      response: adminResponses(),
    },
    handler: async (request) => ({
      data: await inTransaction(ctx, (trx) =>
        setSkuShare(ctx, trx, request.params.id, request.body.skuId, request.body.active ?? true),
      ),
    }),
  });

  app.post('/connections/:id/agreements', {
    config: admin,
    schema: { tags: ['agreements'], params: IdParams, body: AgreementBody, response: adminResponses(201) },
    handler: async (request, reply) => {
      reply.code(201);
      return {
        data: adminView(
          await inTransaction(ctx, (trx) => addAgreement(ctx, trx, request.params.id, request.body)),
        ),
      };
    },
  });

  app.patch('/agreements/:id', {
    config: admin,
    schema: {
      tags: ['agreements'],
      summary: 'Activates, pauses, resumes or terminates an agreement.',
      params: IdParams,
      body: Type.Object({ status: OneOf(['active', 'paused', 'terminated']) }),
      response: adminResponses(),
    },
    handler: async (request) => ({
      data: adminView(
        await inTransaction(ctx, (trx) =>
          setAgreementStatus(ctx, trx, request.params.id, request.body.status),
        ),
      ),
    }),
  });

  app.post('/agreements/:id/supersede', {
    config: admin,
    schema: {
      tags: ['agreements'],
      params: IdParams,
      body: Type.Omit(AgreementBody, ['kind', 'status']),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      const input = { ...request.body, kind: 'bma' as const };
      return {
        data: adminView(
          await inTransaction(ctx, (trx) => supersedeAgreement(ctx, trx, request.params.id, input)),
        ),
      };
    },
  });

  app.post('/agreements/:id/amendments', {
    config: admin,
    schema: {
      tags: ['agreements'],
      params: IdParams,
      body: Type.Object({ description: Type.String({ minLength: 1, maxLength: 2000 }) }),
      response: adminResponses(201),
    },
    handler: async (request, reply) => {
      reply.code(201);
      return {
        data: await inTransaction(ctx, (trx) =>
          proposeAmendment(ctx, trx, request.params.id, request.body.description),
        ),
      };
    },
  });

  app.post('/amendments/:id/accept', {
    config: admin,
    schema: { tags: ['agreements'], params: IdParams, response: adminResponses() },
    handler: async (request) => ({
      data: await inTransaction(ctx, (trx) => acceptAmendment(ctx, trx, request.params.id)),
    }),
  });
}
