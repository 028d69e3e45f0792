import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { throttleByAddress } from '../../http/public-throttle.js';
import { actorOf } from '../../http/request-context.js';
import { dataEnvelope, errorResponses, Nullable, OneOf } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { captureAttestation, createAttestation, getAttestation } from './geo-attest.service.js';

const AttestationSchema = Type.Object({
  attestId: Type.String(),
  status: OneOf(['pending', 'captured', 'spent', 'expired']),
  captureUrl: Type.String({ description: "The URL the buyer's checkout page POSTs to, without a key." }),
  expiresAt: Type.String(),
  capturedAt: Nullable(Type.String()),
  countryCode: Nullable(Type.String()),
  orderReference: Nullable(Type.String()),
});

const AttestParams = Type.Object({ attestId: Type.String({ minLength: 1, maxLength: 200 }) });

/** Captures per address and minute: a checkout page captures once; this only slows a flood. */
const CAPTURES_PER_MINUTE = 30;

/** Any page may call the capture: it carries no credential, and the browser sends none. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
} as const;

/** Checkout-page geo attestations (docs/checkout.md). */
export function registerGeoAttestRoutes(app: TypedApp, ctx: AppContext): void {
  const seller = {
    auth: 'seller',
    scopes: ['seller:orders:preview', 'seller:keys:pull'],
    rateClass: 'orders',
  } as const;

  app.post('/geo-attestations', {
    config: seller,
    schema: {
      tags: ['checkout'],
      summary:
        "Creates a geo attestation for one checkout: the buyer's page captures it, the order spends it.",
      response: { 201: dataEnvelope(AttestationSchema), ...errorResponses() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await createAttestation(ctx, actorOf(request)) };
    },
  });

  app.get('/geo-attestations/:attestId', {
    config: seller,
    schema: {
      tags: ['checkout'],
      summary: 'One geo attestation: whether it was captured, the country observed, where it was spent.',
      params: AttestParams,
      response: { 200: dataEnvelope(AttestationSchema), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await getAttestation(ctx, actorOf(request), request.params.attestId),
    }),
  });

  app.post('/geo-attestations/:attestId/capture', {
    config: { auth: 'none' },
    schema: {
      tags: ['checkout'],
      summary:
        "Called by the buyer's browser, not the seller: records the country of the address it calls from. No key; CORS open.",
      security: [],
      params: AttestParams,
      response: {
        200: dataEnvelope(
          Type.Object({
            attestId: Type.String(),
            status: Type.Literal('captured'),
            countryCode: Nullable(Type.String()),
            expiresAt: Type.String(),
          }),
        ),
        ...errorResponses(404, 409),
      },
    },
    handler: async (request, reply) => {
      reply.headers(CORS);
      const throttle = await throttleByAddress(ctx, request, 'geo-capture', CAPTURES_PER_MINUTE);
      if (!throttle.allowed) {
        throw fail(
          'RATE_LIMIT_EXCEEDED',
          'Too many captures from this address.',
          { retryAfterSeconds: throttle.retryAfterSec },
          { 'Retry-After': String(throttle.retryAfterSec) },
        ).withHint(
          `Wait Retry-After seconds: one address may capture ${CAPTURES_PER_MINUTE} times a minute (a checkout page captures once).`,
        );
      }
      return { data: await captureAttestation(ctx, request.params.attestId, request.clientIp) };
    },
  });

  app.options('/geo-attestations/:attestId/capture', {
    config: { auth: 'none' },
    schema: { hide: true },
    handler: async (_request, reply) => reply.code(204).headers(CORS).send(),
  });
}
