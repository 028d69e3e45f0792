import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { SCOPES } from '../../http/auth/scopes.js';
import { fail } from '../../http/errors.js';
import { ApiErrorRef, CountryCode, DateTime, dataEnvelope, Nullable, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf, isoOf, isoOrNull } from '../../lib/clock.js';
import { mintKey } from '../api-keys/api-keys.service.js';
import { companyView, createCompany } from '../identity/identity.service.js';
import { registerAfterSaleAdminRoutes } from './after-sale.admin.js';
import { registerCatalogAdminRoutes } from './catalog.admin.js';
import { registerFinanceAdminRoutes } from './finance.admin.js';
import { registerPartnerAdminRoutes } from './partners.admin.js';
import { registerSupplyAdminRoutes } from './supply.admin.js';
import { registerWebhookAdminRoutes } from './webhooks.admin.js';

const adminErrors = {
  401: ApiErrorRef,
  403: ApiErrorRef,
  404: ApiErrorRef,
  422: ApiErrorRef,
  500: ApiErrorRef,
};
const admin = { auth: 'admin' } as const;

const CompanySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Type.String(),
  country: Nullable(Type.String()),
  productionAccess: Type.Boolean(),
  apiAgreementSigned: Type.Boolean(),
  checkoutHoldEnabled: Type.Boolean(),
  keylessEnabled: Type.Boolean(),
  preorderVerifiedAt: Nullable(DateTime),
  createdAt: Nullable(DateTime),
});

const MintedKeySchema = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  environment: Type.String(),
  livemode: Type.Boolean(),
  scopes: Type.Array(Type.String()),
  allowedIps: Nullable(Type.Array(Type.String())),
  expiresAt: Nullable(DateTime),
});

/** The operator API (`/admin/v1`, bearer SDAPI_ADMIN_TOKEN): the publisher-console side. */
export function registerOperatorRoutes(app: TypedApp, ctx: AppContext, openApi: () => unknown): void {
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => openApi());
  registerPartnerAdminRoutes(app, ctx);
  registerCatalogAdminRoutes(app, ctx);
  registerSupplyAdminRoutes(app, ctx);
  registerFinanceAdminRoutes(app, ctx);
  registerAfterSaleAdminRoutes(app, ctx);
  registerWebhookAdminRoutes(app, ctx);

  app.post('/companies', {
    config: admin,
    schema: {
      tags: ['companies'],
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 200 }),
        kind: Type.Optional(Type.Union([Type.Literal('seller'), Type.Literal('publisher')])),
        country: Type.Optional(Nullable(CountryCode)),
        productionAccess: Type.Optional(Type.Boolean()),
        apiAgreementSigned: Type.Optional(Type.Boolean()),
      }),
      response: { 201: dataEnvelope(CompanySchema), ...adminErrors },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: companyView(await createCompany(ctx, request.body)) };
    },
  });

  app.post('/companies/:id/keys', {
    config: admin,
    schema: {
      tags: ['companies'],
      params: Type.Object({ id: Uuid }),
      body: Type.Object({
        environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
        scopes: Type.Optional(
          Type.Array(Type.Union(SCOPES.map((s) => Type.Literal(s))), { maxItems: SCOPES.length }),
        ),
        allowedIps: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        expiresAt: Type.Optional(Nullable(DateTime)),
      }),
      response: { 201: dataEnvelope(MintedKeySchema), ...adminErrors },
    },
    handler: async (request, reply) => {
      const body = request.body;
      const minted = await mintKey(ctx, {
        companyId: request.params.id,
        environment: body.environment,
        name: body.name ?? `${body.environment} key`,
        scopes: body.scopes,
        allowedIps: body.allowedIps,
        expiresAt: body.expiresAt ? instantOf(body.expiresAt) : null,
      });
      reply.code(201);
      return { data: { ...minted, expiresAt: isoOrNull(minted.expiresAt) } };
    },
  });

  app.post('/clock', {
    config: admin,
    schema: {
      tags: ['test clock'],
      summary:
        'Moves the service clock forward for every process on the database (only with SDAPI_TEST_CLOCK=1); answers once all see it.',
      body: Type.Object({ advanceSeconds: Type.Integer({ minimum: 1, maximum: 366 * 86400 }) }),
      response: { 200: dataEnvelope(Type.Object({ now: DateTime })), ...adminErrors },
    },
    handler: async (request) => {
      if (!ctx.testClock)
        throw fail('FORBIDDEN', 'The test clock is off; start the service with SDAPI_TEST_CLOCK=1.');
      return { data: { now: isoOf(await ctx.testClock.advanceShared(request.body.advanceSeconds)) } };
    },
  });
}
