import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/request-context.js';
import { dataEnvelope, errorResponses, Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { ReplacementPolicySchema } from '../allocations/index.js';
import { apiAuditBy, changeLink } from '../checkout/index.js';
import { replaceKey } from './replacements.service.js';

const manage = {
  auth: 'seller',
  scopes: ['seller:orders:manage'],
  rateClass: 'orders',
  idempotency: 'optional',
} as const;

export const ReplacementSchema = Type.Object({
  replacementId: Type.String(),
  orderReference: Type.String(),
  skuCode: Type.String(),
  replacedKeyId: Type.String({ description: 'The reported key, now quarantined.' }),
  keyId: Type.String({ description: 'The new key, sold to the same order.' }),
  key: Type.String({ description: 'The new key in plaintext: shown in this answer only.' }),
  reason: Nullable(Type.String()),
  replacementsUsed: Type.Integer({ description: 'Replacements on this order, this one included.' }),
  replacementPolicy: ReplacementPolicySchema,
});

const LinkSchema = Type.Object({
  fulfillmentId: Type.String(),
  orderReference: Type.String(),
  expiresAt: Type.String(),
  url: Nullable(Type.String({ description: "The buyer's new link (regenerate); null once revoked." })),
  revokedAt: Nullable(Type.String()),
});

const ReferenceParams = Type.Object({ orderReference: Type.String({ minLength: 1, maxLength: 200 }) });

/** Key replacement and keyless link management (docs/after-sale.md), for keys holding seller:orders:manage. */
export function registerReplacementRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/keys/replace', {
    config: { ...manage, carriesSecret: true },
    schema: {
      tags: ['after-sale'],
      summary:
        "Swaps a delivered key the buyer reports as not working for one new key of the same grant: no charge, within the grant's replacement policy.",
      body: Type.Object(
        {
          keyId: Type.String({ minLength: 1, maxLength: 64 }),
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        },
        { additionalProperties: false },
      ),
      response: { 200: dataEnvelope(ReplacementSchema), ...errorResponses(409) },
    },
    handler: async (request) => ({
      data: await replaceKey(ctx, actorOf(request), apiAuditBy(request), request.body),
    }),
  });

  app.post('/orders/:orderReference/redemption/revoke', {
    config: { ...manage, carriesSecret: true },
    schema: {
      tags: ['after-sale'],
      summary:
        "Withdraws the buyer's redemption link of a keyless order: it answers a withdrawn page from now on.",
      params: ReferenceParams,
      response: { 200: dataEnvelope(LinkSchema), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await changeLink(ctx, actorOf(request), request.params.orderReference, 'revoke'),
    }),
  });

  app.post('/orders/:orderReference/redemption/regenerate', {
    config: { ...manage, carriesSecret: true },
    schema: {
      tags: ['after-sale'],
      summary:
        'Issues a new redemption link for a keyless order; the old link stops working. The new link is in this answer only.',
      params: ReferenceParams,
      response: { 200: dataEnvelope(LinkSchema), ...errorResponses(404, 410) },
    },
    handler: async (request) => ({
      data: await changeLink(ctx, actorOf(request), request.params.orderReference, 'regenerate'),
    }),
  });
}
