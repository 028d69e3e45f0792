import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../context.js';
import { actorOf, principalOf } from '../../../http/request-context.js';
import { errorResponses, Nullable, Uuid } from '../../../http/schemas.js';
import type { TypedApp } from '../../../http/typed-app.js';
import { factsOf } from '../checkout.routes.js';
import { FulfilledSchema, HoldBody, IntegrationOrderContext } from '../checkout.schemas.js';
import { commitReservation } from './commit.service.js';
import { extendReservation } from './lifecycle.service.js';
import { reserve } from './reservations.service.js';

const config = {
  auth: 'seller',
  scopes: ['seller:keys:pull'],
  rateClass: 'orders',
  idempotency: 'required',
} as const;

/** The body of POST /orders/hold, without the hold's TTL: a reservation lives about 60 s. */
const ReserveBody = Type.Omit(HoldBody, ['ttlSeconds'], { additionalProperties: false });

const ReservationSchema = Type.Object({
  type: Type.Literal('reservation'),
  reservationId: Type.String(),
  allocationId: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  expiresAt: Type.String(),
  expiresInSeconds: Type.Integer(),
  remainingSlots: Type.Integer(),
  orderReference: Type.String(),
  unitPriceCents: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'The price per key this reservation bound when it was made (the expectedUnitPriceCents sent, else the effective price quoted then); its commit sells at it. Null only for a reservation made before prices were bound.',
  }),
  currencyCode: Nullable(Type.String()),
  extended: Type.Optional(Type.Boolean()),
});

export function registerReservationRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/orders/reserve', {
    config,
    schema: {
      tags: ['checkout'],
      summary:
        'Hot drop: reserves keys on a hot-drop allocation for about 60 s without claiming them; commit with POST /orders/commit.',
      body: ReserveBody,
      response: {
        200: Type.Object({ data: ReservationSchema }),
        ...errorResponses(404, 409, 412, 503),
      },
    },
    handler: async (request) => {
      const data = await reserve(ctx, actorOf(request), request.body);
      ctx.metrics.reservations.inc({ environment: principalOf(request).environment, outcome: 'reserved' });
      return { data };
    },
  });

  app.post('/orders/commit', {
    config: { ...config, carriesSecret: true },
    schema: {
      tags: ['checkout'],
      summary:
        'Fulfils a live reservation exactly as POST /orders would (keys, order, sale line, events); 410 when it is gone.',
      body: Type.Object(
        { reservationId: Uuid, integrationOrderContext: IntegrationOrderContext },
        { additionalProperties: false },
      ),
      response: { 200: Type.Object({ data: FulfilledSchema }), ...errorResponses(404, 409, 410, 503) },
    },
    handler: async (request) => {
      const view = await commitReservation(ctx, actorOf(request), request.body, factsOf(request));
      const { environment } = principalOf(request);
      ctx.metrics.recordFulfilment(environment, 'order', view);
      ctx.metrics.reservations.inc({ environment, outcome: 'committed' });
      return { data: view };
    },
  });

  app.post('/orders/:reservationId/extend', {
    config: { ...config, idempotency: 'optional' },
    schema: {
      tags: ['checkout'],
      summary: 'Extends a live reservation once, by its TTL again; the second extension is refused.',
      params: Type.Object({ reservationId: Uuid }),
      response: { 200: Type.Object({ data: ReservationSchema }), ...errorResponses(409, 410, 503) },
    },
    handler: async (request) => ({
      data: await extendReservation(ctx, actorOf(request), request.params.reservationId),
    }),
  });
}
