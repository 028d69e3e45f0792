import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { SCOPES } from '../../http/auth/scopes.js';
import { CountryCode, DateTime, dataEnvelope, Nullable, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf, isoOrNull } from '../../lib/clock.js';
import { mintKey } from '../api-keys/index.js';
import { companyView, createCompany } from '../companies/index.js';
import { adminErrors } from './admin-view.js';

const admin = { auth: 'admin' } as const;

/** A company as the operator and the console show it. */
export const CompanySchema = Type.Object({
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

/** Companies and their API keys (what `sdapi company create` and `sdapi key create` call). */
export function registerCompanyAdminRoutes(app: TypedApp, ctx: AppContext): void {
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
      return { data: companyView(await createCompany(ctx, request.body, ctx.db)) };
    },
  });

  app.post('/companies/:id/keys', {
    config: { ...admin, carriesSecret: true },
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
      const minted = await mintKey(
        ctx,
        {
          companyId: request.params.id,
          environment: body.environment,
          name: body.name ?? `${body.environment} key`,
          scopes: body.scopes,
          allowedIps: body.allowedIps,
          expiresAt: body.expiresAt ? instantOf(body.expiresAt) : null,
        },
        ctx.db,
      );
      reply.code(201);
      return { data: { ...minted, expiresAt: isoOrNull(minted.expiresAt) } };
    },
  });
}
