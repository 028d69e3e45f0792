import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { LimitQuery } from '../../http/pagination.js';
import { dataEnvelope, Nullable, OneOf, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { EVENT_TYPE_NAMES, EVENT_TYPES, exampleEnvelope } from '../events/index.js';
import {
  Attempt,
  Created,
  createEndpoint,
  deleteEndpoint,
  Endpoint,
  enableEndpoint,
  eventDeliveries,
  listAttempts,
  listEndpoints,
  pauseEndpoint,
  previewReplay,
  Replayed,
  ReplayPreview,
  Requeued,
  redeliverEvent,
  replayFailedSince,
  tenantOf,
  testEndpoint,
  updateEndpoint,
} from '../webhooks/index.js';
import {
  ConsoleWebhookList,
  consoleAnswer,
  consoleCreated,
  consoleData,
  consoleNoContent,
  EventDeliveriesSchema,
} from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSession, secretAnswer } from './console-http.js';
import { principalOfSession } from './sessions.service.js';

const open = { config: { auth: 'none' } } as const;
const Params = Type.Object({ id: Uuid });
const EventId = Type.String({ minLength: 1, maxLength: 100 });
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const EventTypes = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 64 });
const write = { capability: 'webhooks:write' } as const;
const Since = Type.String({ format: 'date-time' });

/** The event types an endpoint may subscribe to, each with what its webhook looks like. */
const CATALOG = EVENT_TYPE_NAMES.filter((type) => EVENT_TYPES[type].audience !== 'endpoint').map((type) => ({
  type,
  example: exampleEnvelope(type),
}));

/** The webhooks page: the seller API's webhook services, acting as the signed-in user. */
export function registerConsoleWebhookRoutes(app: TypedApp, ctx: AppContext): void {
  const base = `${CONSOLE_API}/webhooks`;
  const acting = async (request: Parameters<typeof requireSession>[1], needs = {}) =>
    principalOfSession(await requireSession(ctx, request, needs));

  app.get(base, { ...open, schema: { ...consoleAnswer(ConsoleWebhookList) } }, async (request) => {
    const data = await listEndpoints(ctx, await acting(request));
    return { data, meta: { eventTypes: CATALOG } };
  });

  app.post(
    base,
    {
      ...secretAnswer,
      schema: {
        ...consoleCreated(Created),
        body: Type.Object(
          { url: Url, eventTypes: EventTypes, description: Type.Optional(Type.String({ maxLength: 500 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const created = await createEndpoint(ctx, await acting(request, write), request.body);
      return reply.code(201).send({ data: created });
    },
  );

  app.patch(
    `${base}/:id`,
    {
      ...secretAnswer,
      schema: {
        ...consoleData(Type.Intersect([Endpoint, Type.Object({ secret: Type.Optional(Type.String()) })])),
        params: Params,
        body: Type.Object(
          {
            url: Type.Optional(Url),
            eventTypes: Type.Optional(EventTypes),
            description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
            rotateSecret: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => ({
      data: await updateEndpoint(ctx, await acting(request, write), request.params.id, request.body),
    }),
  );

  app.delete(
    `${base}/:id`,
    { ...open, schema: { ...consoleNoContent, params: Params } },
    async (request, reply) => {
      await deleteEndpoint(ctx, await acting(request, write), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:id/test`,
    {
      ...open,
      schema: {
        hide: true,
        response: { 202: dataEnvelope(Type.Object({ eventId: Type.String(), eventType: Type.String() })) },
        params: Params,
        body: Nullable(
          Type.Object(
            { eventType: Type.Optional(Type.String({ maxLength: 100 })) },
            { additionalProperties: false },
          ),
        ),
      },
    },
    async (request, reply) => {
      const data = await testEndpoint(
        ctx,
        await acting(request, write),
        request.params.id,
        request.body ?? {},
      );
      return reply.code(202).send({ data });
    },
  );

  app.post(
    `${base}/:id/enable`,
    { ...open, schema: { ...consoleData(Endpoint), params: Params } },
    async (request) => ({
      data: await enableEndpoint(ctx, await acting(request, write), request.params.id),
    }),
  );

  app.post(
    `${base}/:id/disable`,
    { ...open, schema: { ...consoleData(Endpoint), params: Params } },
    async (request) => ({
      data: await pauseEndpoint(ctx, await acting(request, write), request.params.id),
    }),
  );

  app.get(
    `${base}/:id/deliveries`,
    {
      ...open,
      schema: {
        ...consoleAnswer(
          Type.Object({
            data: Type.Array(Attempt),
            meta: Type.Object({ nextCursor: Nullable(Type.String()) }),
          }),
        ),
        params: Params,
        querystring: Type.Object(
          {
            cursor: Type.Optional(Type.String({ maxLength: 200 })),
            limit: LimitQuery(100, 50),
            status: Type.Optional(OneOf(['succeeded', 'failed'] as const)),
            eventType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const page = await listAttempts(ctx, await acting(request), request.params.id, request.query, (c) => c);
      return { data: page.data, meta: { nextCursor: page.meta.nextCursor } };
    },
  );

  app.get(
    `${base}/events/:eventId`,
    { ...open, schema: { ...consoleData(EventDeliveriesSchema), params: Type.Object({ eventId: EventId }) } },
    async (request) => ({ data: await eventDeliveries(ctx, await acting(request), request.params.eventId) }),
  );

  app.post(
    `${base}/:id/resend`,
    {
      ...open,
      schema: {
        ...consoleCreated(Requeued),
        params: Params,
        body: Type.Object({ eventId: EventId }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(await acting(request, write));
      const data = await redeliverEvent(ctx, tenant, request.body.eventId, request.params.id);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    `${base}/:id/replay`,
    {
      ...open,
      schema: {
        ...consoleData(ReplayPreview),
        params: Params,
        querystring: Type.Object({ since: Since }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const tenant = tenantOf(await acting(request, write));
      return { data: await previewReplay(ctx, tenant, request.params.id, request.query.since) };
    },
  );

  app.post(
    `${base}/:id/replay`,
    {
      ...open,
      schema: {
        ...consoleCreated(Replayed),
        params: Params,
        body: Type.Object({ since: Since }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(await acting(request, write));
      const data = await replayFailedSince(ctx, tenant, request.params.id, request.body.since);
      return reply.code(201).send({ data });
    },
  );
}
