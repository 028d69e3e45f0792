import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/request-context.js';
import { DateTime, dataEnvelope, errorResponses, NoContent, Nullable, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { isoOrNull } from '../../lib/clock.js';
import {
  createChildKey,
  type keyView,
  listKeys,
  replaceAllowedIps,
  revokeKey,
  rotateKey,
} from './key-management.service.js';

const AllowedIps = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 50 });

export const KeyItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  keyHint: Type.String(),
  environment: Type.String(),
  livemode: Type.Boolean(),
  scopes: Type.Array(Type.String()),
  allowedIps: Nullable(Type.Array(Type.String())),
  expiresAt: Nullable(DateTime),
  createdAt: DateTime,
  rotatedAt: Nullable(DateTime),
  parentKeyId: Nullable(Type.String()),
});

export const SecretOnce = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String(),
  livemode: Type.Boolean(),
});
const KeyParams = Type.Object({ id: Uuid });
const scoped = { auth: 'seller', actsForSeller: false, scopes: ['seller:keys:write'] } as const;

/** The seller API's key item: its contract has no last-used time (the console and operator show it). */
const itemOf = ({ lastUsedAt: _consoleOnly, ...row }: ReturnType<typeof keyView>) => ({
  ...row,
  expiresAt: isoOrNull(row.expiresAt),
  createdAt: isoOrNull(row.createdAt) ?? '',
  rotatedAt: isoOrNull(row.rotatedAt),
});

export function registerApiKeyRoutes(app: TypedApp, ctx: AppContext): void {
  app.get('/keys', {
    config: scoped,
    schema: {
      tags: ['keys'],
      summary: "The company's live keys of this environment; secrets are never listed.",
      response: {
        200: Type.Object({ data: Type.Array(KeyItem), meta: Type.Object({ count: Type.Integer() }) }),
        ...errorResponses(),
      },
    },
    handler: async (request) => {
      const keys = (await listKeys(ctx, principalOf(request))).map(itemOf);
      return { data: keys, meta: { count: keys.length } };
    },
  });

  app.post('/keys', {
    config: { ...scoped, idempotency: 'optional', carriesSecret: true },
    schema: {
      tags: ['keys'],
      summary: 'Creates a key that never exceeds its creator; the secret is shown only in this reply.',
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        allowed_ips: Type.Optional(AllowedIps),
        includeFinanceScope: Type.Optional(Type.Boolean()),
      }),
      response: { 201: dataEnvelope(SecretOnce), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await createChildKey(ctx, principalOf(request), request.body) };
    },
  });

  app.patch('/keys/:id/allowed-ips', {
    config: { ...scoped, idempotency: 'optional' },
    schema: {
      tags: ['keys'],
      summary: "Replaces a key's IP allowlist; effective on every process within about 60 seconds.",
      params: KeyParams,
      body: Type.Object({ allowed_ips: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 }) }),
      response: { 204: NoContent, ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await replaceAllowedIps(ctx, principalOf(request), request.params.id, request.body.allowed_ips);
      return reply.code(204).send(null);
    },
  });

  app.post('/keys/:id/rotate', {
    config: { ...scoped, idempotency: 'optional', carriesSecret: true },
    schema: {
      tags: ['keys'],
      summary: 'Replaces the secret in place: the old one stops working at once, the new one is shown once.',
      params: KeyParams,
      response: { 200: dataEnvelope(SecretOnce), ...errorResponses(404) },
    },
    handler: async (request) => ({ data: await rotateKey(ctx, principalOf(request), request.params.id) }),
  });

  app.delete('/keys/:id', {
    config: { ...scoped, idempotency: 'optional' },
    schema: {
      tags: ['keys'],
      summary: 'Revokes a key.',
      params: KeyParams,
      response: { 204: NoContent, ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await revokeKey(ctx, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
