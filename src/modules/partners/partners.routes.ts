import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { sellerOf } from '../../http/request-context.js';
import { DateTime, errorResponses, Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { listPartners } from './seller-terms.service.js';

export const PartnerSchema = Type.Object({
  id: Type.String({ description: 'partner connection id' }),
  publisherCompanyId: Type.String(),
  publisherCompanyName: Type.String(),
  website: Nullable(Type.String()),
  country: Nullable(Type.String()),
  description: Nullable(Type.String()),
  logo: Nullable(Type.Object({ url: Type.String() })),
  invoicingEnabled: Type.Boolean(),
  selfBilling: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
  contracts: Type.Object({
    activeBmaTypes: Type.Array(Type.String()),
    pausedBmaTypes: Type.Array(Type.String()),
    pendingBmaTypes: Type.Array(Type.String()),
    mcaStatus: Type.String({ description: 'active, paused, pending, terminated or none' }),
    catalogShareMode: Type.String(),
    sharesSuspended: Type.Boolean(),
  }),
});

export function registerPartnerRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/partners', {
    config: { auth: 'seller', scopes: ['seller:products:read'], rateClass: 'catalog' },
    schema: {
      tags: ['catalog'],
      summary: 'Publisher connections with the read-only contracts summary.',
      response: { 200: Type.Object({ data: Type.Array(PartnerSchema) }), ...errorResponses() },
    },
    handler: async (request) => {
      const { sellerId, environment } = sellerOf(request);
      return { data: await listPartners(ctx, sellerId, environment) };
    },
  });
}
