import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { principalOf, sellerOf } from '../../http/request-context.js';
import { ApiErrorRef, dataEnvelope, errorResponses } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import { getFootprint, replaceFootprint } from '../companies/index.js';
import {
  FootprintBody,
  FootprintSchema,
  HealthSchema,
  IntegrationStatusSchema,
  WhoamiSchema,
} from './identity.schemas.js';
import { integrationStatus } from './integration-status.service.js';
import { whoami } from './whoami.service.js';

export function registerIdentityRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/health', {
    config: { auth: 'none' },
    schema: {
      tags: ['utility'],
      summary: 'Liveness and database reachability; no key needed.',
      security: [],
      response: { 200: dataEnvelope(HealthSchema), 503: ApiErrorRef },
    },
    handler: async () => {
      try {
        await ctx.probes.database();
      } catch {
        throw fail('SERVICE_UNAVAILABLE', 'The database is unreachable.');
      }
      return {
        data: {
          status: 'ok' as const,
          database: 'ok' as const,
          engine: ctx.engine,
          time: isoOf(ctx.clock.now()),
        },
      };
    },
  });

  app.get('/whoami-ip', {
    config: { auth: 'none' },
    schema: {
      tags: ['utility'],
      summary: 'The caller address as this service sees it (the one the IP allowlist is checked against).',
      security: [],
      response: {
        200: Type.Object({
          data: Type.Object({ clientIp: Type.Union([Type.String(), Type.Null()]) }),
          meta: Type.Object({ requestId: Type.String() }),
        }),
      },
    },
    handler: async (request) => ({ data: { clientIp: request.clientIp }, meta: { requestId: request.id } }),
  });

  app.get('/whoami', {
    config: { auth: 'seller', actsForSeller: false, rateClass: 'general' },
    schema: {
      tags: ['identity'],
      summary:
        'The company, environment, scopes and readiness behind this key. Call it first for any auth failure.',
      response: { 200: dataEnvelope(WhoamiSchema), ...errorResponses() },
    },
    handler: async (request) => ({ data: await whoami(ctx, principalOf(request)) }),
  });

  app.get('/integration/status', {
    config: { auth: 'seller', rateClass: 'general' },
    schema: {
      tags: ['identity'],
      summary:
        'Integration readiness: blockers, agreement, footprint completeness and whether a first order completed.',
      response: { 200: dataEnvelope(IntegrationStatusSchema), ...errorResponses() },
    },
    handler: async (request) => ({
      data: await integrationStatus(ctx, principalOf(request), sellerOf(request)),
    }),
  });

  app.get('/me/footprint', {
    config: { auth: 'seller', actsForSeller: false, scopes: ['seller:account:manage'] },
    schema: {
      tags: ['identity'],
      summary: 'The selling countries and currencies declared for the company.',
      response: { 200: dataEnvelope(FootprintSchema), ...errorResponses() },
    },
    handler: async (request) => {
      const footprint = await getFootprint(ctx, principalOf(request).companyId, ctx.db);
      return { data: { ...footprint, updatedAt: isoOrNull(footprint.updatedAt) } };
    },
  });

  app.put('/me/footprint', {
    config: {
      auth: 'seller',
      actsForSeller: false,
      scopes: ['seller:account:manage'],
      idempotency: 'optional',
    },
    schema: {
      tags: ['identity'],
      summary: 'Replaces both footprint sets in one transaction; each needs at least one entry.',
      body: FootprintBody,
      response: { 200: dataEnvelope(FootprintSchema), ...errorResponses() },
    },
    handler: async (request) => {
      const footprint = await replaceFootprint(ctx, principalOf(request).companyId, request.body);
      return { data: { ...footprint, updatedAt: isoOrNull(footprint.updatedAt) } };
    },
  });
}
