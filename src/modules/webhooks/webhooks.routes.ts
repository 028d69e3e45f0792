import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { LimitQuery, nextPageUrl } from '../../http/pagination.js';
import { principalOf } from '../../http/request-context.js';
import {
  DateTime,
  dataEnvelope,
  errorResponses,
  NoContent,
  Nullable,
  OneOf,
  PageMeta,
  Uuid,
} from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { listEvents } from './events-feed.service.js';
import { previewReplay, redeliverEvent, replayFailedSince } from './redelivery.service.js';
import {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  listAttempts,
  listEndpoints,
  pauseEndpoint,
  tenantOf,
  testEndpoint,
  updateEndpoint,
} from './webhooks.service.js';

const Url = Type.String({ minLength: 1, maxLength: 2048 });
const EventTypes = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 64 });
const Description = Type.String({ maxLength: 500 });

export const Endpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  status: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  disabledReason: Nullable(Type.String()),
  disabledAt: Nullable(DateTime),
  disabledBy: Nullable(OneOf(['breaker', 'seller'] as const)),
});
export const Created = Type.Object({
  id: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  status: Type.Literal('active'),
  secret: Type.String(),
  createdAt: DateTime,
});
export const Attempt = Type.Object({
  eventId: Type.String(),
  eventType: Type.String(),
  attempt: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  responseBody: Nullable(
    Type.String({ description: "The receiver's answer, its first 1,024 bytes; kept 14 days." }),
  ),
  durationMs: Type.Integer(),
  attemptedAt: DateTime,
  nextRetryAt: Nullable(DateTime),
});
const FeedEvent = Type.Object({
  eventId: Type.String(),
  eventType: Type.String(),
  eventVersion: Type.Integer(),
  createdAt: Type.String(),
  publishedAt: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
});
const Params = Type.Object({ id: Uuid });
export const ReplayPreview = Type.Object({
  endpointId: Type.String(),
  since: DateTime,
  from: DateTime,
  count: Type.Integer(),
  perCall: Type.Integer(),
});
export const Requeued = Type.Object({
  deliveryId: Type.String(),
  eventId: Type.String(),
  endpointId: Type.String(),
  status: Type.String(),
});
export const Replayed = Type.Object({
  endpointId: Type.String(),
  since: DateTime,
  from: DateTime,
  replayed: Type.Integer(),
  eventIds: Type.Array(Type.String()),
  more: Type.Boolean(),
});
/**
 * Webhook management (and the events feed) counts in its own sandbox rate class
 * (docs/http-contract.md), and does not act for the seller: a sandbox seller is not provisioned here.
 */
const read = {
  auth: 'seller',
  actsForSeller: false,
  scopes: ['seller:webhooks:read'],
  rateClass: 'webhooks',
} as const;
const write = {
  auth: 'seller',
  actsForSeller: false,
  scopes: ['seller:webhooks:write'],
  idempotency: 'optional',
  rateClass: 'webhooks',
} as const;
const tags = ['webhooks'];

export function registerWebhookRoutes(app: TypedApp, ctx: AppContext): void {
  app.post('/webhooks', {
    config: { ...write, carriesSecret: true },
    schema: {
      tags,
      summary: 'Creates an endpoint; its signing secret is shown only here and on rotation.',
      body: Type.Object({
        url: Url,
        eventTypes: Type.Optional(EventTypes),
        description: Type.Optional(Description),
      }),
      response: { 201: dataEnvelope(Created), ...errorResponses() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await createEndpoint(ctx, principalOf(request), request.body) };
    },
  });

  app.get('/webhooks', {
    config: read,
    schema: {
      tags,
      summary: "The company's endpoints of this environment (never their secrets).",
      response: {
        200: Type.Object({ data: Type.Array(Endpoint), meta: Type.Object({ count: Type.Integer() }) }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const data = await listEndpoints(ctx, principalOf(request));
      return { data, meta: { count: data.length } };
    },
  });

  app.patch('/webhooks/:id', {
    config: { ...write, carriesSecret: true },
    schema: {
      tags,
      summary:
        'Edits an endpoint; `rotateSecret: true` answers the new secret once (the old one signs beside it for 24 h).',
      params: Params,
      body: Type.Object({
        url: Type.Optional(Url),
        eventTypes: Type.Optional(EventTypes),
        description: Type.Optional(Nullable(Description)),
        rotateSecret: Type.Optional(Type.Boolean()),
      }),
      response: {
        200: dataEnvelope(Type.Intersect([Endpoint, Type.Object({ secret: Type.Optional(Type.String()) })])),
        ...errorResponses(404),
      },
    },
    handler: async (request) => ({
      data: await updateEndpoint(ctx, principalOf(request), request.params.id, request.body),
    }),
  });

  app.delete('/webhooks/:id', {
    config: write,
    schema: {
      tags,
      summary: 'Deletes an endpoint and its delivery log.',
      params: Params,
      response: { 204: NoContent, ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await deleteEndpoint(ctx, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/webhooks/:id/test', {
    config: write,
    schema: {
      tags,
      summary:
        'Sends `test.ping`, or any event type with its example payload, to this endpoint alone; test sends do not count toward the circuit breaker.',
      params: Params,
      body: Nullable(Type.Object({ eventType: Type.Optional(Type.String({ maxLength: 100 })) })),
      response: {
        202: dataEnvelope(Type.Object({ eventId: Type.String(), eventType: Type.String() })),
        ...errorResponses(404),
      },
    },
    handler: async (request, reply) => {
      reply.code(202);
      return { data: await testEndpoint(ctx, principalOf(request), request.params.id, request.body ?? {}) };
    },
  });

  app.post('/webhooks/:id/disable', {
    config: write,
    schema: {
      tags,
      summary:
        'Pauses an endpoint: nothing is sent to it and its events wait, held, until enable sends them, oldest first.',
      params: Params,
      response: { 200: dataEnvelope(Endpoint), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await pauseEndpoint(ctx, principalOf(request), request.params.id),
    }),
  });

  app.post('/webhooks/:id/enable', {
    config: write,
    schema: {
      tags,
      summary: 'Re-enables a disabled endpoint; the events buffered meanwhile flush, oldest first.',
      params: Params,
      response: { 200: dataEnvelope(Endpoint), ...errorResponses(404) },
    },
    handler: async (request) => ({
      data: await enableEndpoint(ctx, principalOf(request), request.params.id),
    }),
  });

  app.post('/webhooks/:id/resend', {
    config: write,
    schema: {
      tags,
      summary:
        'Sends one event to this endpoint again, as a new delivery due now with its own retries (the type filter is not consulted).',
      params: Params,
      body: Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: { 201: dataEnvelope(Requeued), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      reply.code(201);
      const tenant = tenantOf(principalOf(request));
      return { data: await redeliverEvent(ctx, tenant, request.body.eventId, request.params.id) };
    },
  });

  app.get('/webhooks/:id/replay', {
    config: read,
    schema: {
      tags,
      summary:
        'How many events a replay with this `since` would re-queue now (all of them; a replay call takes at most `perCall`).',
      params: Params,
      querystring: Type.Object({
        since: Type.Unsafe<string>({ ...DateTime, description: 'Events created at or after this time.' }),
      }),
      response: { 200: dataEnvelope(ReplayPreview), ...errorResponses(404) },
    },
    handler: async (request) => {
      const tenant = tenantOf(principalOf(request));
      return { data: await previewReplay(ctx, tenant, request.params.id, request.query.since) };
    },
  });

  app.post('/webhooks/:id/replay', {
    config: write,
    schema: {
      tags,
      summary:
        'Re-queues to this endpoint every event since a time (never before the endpoint was created) that failed or never reached it (at most 500 per call; `more` says to call again).',
      params: Params,
      body: Type.Object({ since: DateTime }),
      response: { 201: dataEnvelope(Replayed), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      reply.code(201);
      const tenant = tenantOf(principalOf(request));
      return { data: await replayFailedSince(ctx, tenant, request.params.id, request.body.since) };
    },
  });

  app.get('/webhooks/:id/deliveries', {
    config: read,
    schema: {
      tags,
      summary: 'The attempt log of an endpoint, newest first, filtered by outcome and event type.',
      params: Params,
      querystring: Type.Object({
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
        limit: LimitQuery(100, 50),
        status: Type.Optional(
          Type.Unsafe<'succeeded' | 'failed'>({
            ...OneOf(['succeeded', 'failed'] as const),
            description: '`succeeded`: attempts answered 2xx; `failed`: any other answer or none.',
          }),
        ),
        eventType: Type.Optional(
          Type.String({ minLength: 1, maxLength: 100, description: 'Only attempts of this event type.' }),
        ),
      }),
      response: { 200: Type.Object({ data: Type.Array(Attempt), meta: PageMeta }), ...errorResponses(404) },
    },
    handler: async (request) =>
      listAttempts(ctx, principalOf(request), request.params.id, request.query, nextPageUrl(request.url)),
  });

  app.get('/events', {
    config: read,
    schema: {
      tags,
      summary: "The company's events in commit order (keyset cursor, or since with microsecond precision).",
      querystring: Type.Object({
        cursor: Type.Optional(Type.String({ maxLength: 200 })),
        since: Type.Optional(Type.String({ maxLength: 40 })),
        types: Type.Optional(Type.String({ maxLength: 2000 })),
        limit: LimitQuery(100, 50),
      }),
      response: {
        200: Type.Object({
          data: Type.Array(FeedEvent),
          meta: Type.Intersect([PageMeta, Type.Object({ nextSince: Nullable(Type.String()) })]),
        }),
        ...errorResponses(),
      },
    },
    handler: async (request) =>
      listEvents(ctx, principalOf(request), request.query, nextPageUrl(request.url)),
  });
}
