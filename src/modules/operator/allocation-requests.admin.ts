import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { ApiErrorRef } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { resolveRequest } from '../allocations/index.js';
import { adminResponses } from './admin-view.js';
import { IdParams } from './schemas.js';

const admin = { auth: 'admin' } as const;
const Reason = Type.String({
  minLength: 1,
  maxLength: 500,
  description: 'Shown to the seller as resolution.reason.',
});

/** The publisher's decision on a seller's pending allocation increase request (`manual` policy). */
export function registerAllocationRequestAdminRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/allocation-requests/:id/approve', {
    config: admin,
    schema: {
      tags: ['allocations'],
      summary:
        'Approves a pending increase request: the grant grows by approvedQuantity (default: the quantity requested), with allocation.updated.',
      params: IdParams,
      body: Type.Object(
        {
          approvedQuantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
          reason: Type.Optional(Reason),
        },
        { additionalProperties: false },
      ),
      response: { ...adminResponses(), 409: ApiErrorRef },
    },
    handler: async (request) => ({
      data: await resolveRequest(ctx, request.params.id, { decision: 'approve', ...request.body }),
    }),
  });

  app.post('/allocation-requests/:id/decline', {
    config: admin,
    schema: {
      tags: ['allocations'],
      summary: 'Declines a pending increase request with a reason the seller sees; the grant is unchanged.',
      params: IdParams,
      body: Type.Object({ reason: Reason }, { additionalProperties: false }),
      response: { ...adminResponses(), 409: ApiErrorRef },
    },
    handler: async (request) => ({
      data: await resolveRequest(ctx, request.params.id, {
        decision: 'decline',
        reason: request.body.reason,
      }),
    }),
  });
}
