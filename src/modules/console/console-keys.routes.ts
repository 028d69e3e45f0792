import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { OPT_IN_SCOPES } from '../../http/auth/scopes.js';
import { Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { isoOrNull } from '../../lib/clock.js';
import { listKeys, replaceAllowedIps, revokeKey, rotateKey, SecretOnce } from '../api-keys/index.js';
import type { RequestLogRecorder } from '../request-log/index.js';
import {
  AllowlistCheckSchema,
  ConsoleKeyList,
  consoleAnswer,
  consoleCreated,
  consoleData,
  consoleNoContent,
} from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSession, secretAnswer } from './console-http.js';
import { checkAllowlist, createConsoleKey, rollConsoleKey } from './console-keys.service.js';
import { grantableScopesOf } from './roles.js';
import { principalOfSession } from './sessions.service.js';

const open = { config: { auth: 'none' } } as const;
const KeyParams = Type.Object({ id: Uuid });
const Entries = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 });
const write = { capability: 'keys:write' } as const;

/**
 * The API keys page: the seller API's key services, acting as the signed-in user. The list
 * writes this process's waiting request-log rows first, so "last used" includes its own calls.
 */
export function registerConsoleKeyRoutes(
  app: TypedApp,
  ctx: AppContext,
  requestLog: RequestLogRecorder,
): void {
  app.get(`${CONSOLE_API}/keys`, { ...open, schema: consoleAnswer(ConsoleKeyList) }, async (request) => {
    const session = await requireSession(ctx, request);
    await requestLog.flush();
    const keys = await listKeys(ctx, principalOfSession(session));
    return {
      data: keys.map((key) => ({
        ...key,
        createdAt: isoOrNull(key.createdAt),
        expiresAt: isoOrNull(key.expiresAt),
        rotatedAt: isoOrNull(key.rotatedAt),
        lastUsedAt: isoOrNull(key.lastUsedAt),
      })),
      meta: { grantableScopes: grantableScopesOf(session.role), optInScopes: [...OPT_IN_SCOPES] },
    };
  });

  app.post(
    `${CONSOLE_API}/keys`,
    {
      ...secretAnswer,
      schema: {
        ...consoleCreated(SecretOnce),
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100 }),
            scopes: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 20 }),
            allowedIps: Entries,
            expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, write);
      const key = await createConsoleKey(ctx, principalOfSession(session), request.body);
      return reply.code(201).send({ data: key });
    },
  );

  app.post(
    `${CONSOLE_API}/keys/allowlist-check`,
    {
      ...open,
      schema: {
        ...consoleData(AllowlistCheckSchema),
        body: Type.Object({ entries: Entries }, { additionalProperties: false }),
      },
    },
    async (request) => {
      await requireSession(ctx, request);
      return { data: checkAllowlist(request.body.entries) };
    },
  );

  app.put(
    `${CONSOLE_API}/keys/:id/allowed-ips`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        params: KeyParams,
        body: Type.Object({ allowedIps: Entries }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, write);
      await replaceAllowedIps(ctx, principalOfSession(session), request.params.id, request.body.allowedIps);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${CONSOLE_API}/keys/:id/rotate`,
    { ...secretAnswer, schema: { ...consoleData(SecretOnce), params: KeyParams } },
    async (request) => {
      const session = await requireSession(ctx, request, write);
      return { data: await rotateKey(ctx, principalOfSession(session), request.params.id) };
    },
  );

  app.post(
    `${CONSOLE_API}/keys/:id/roll`,
    { ...secretAnswer, schema: { ...consoleCreated(SecretOnce), params: KeyParams } },
    async (request, reply) => {
      const session = await requireSession(ctx, request, write);
      return reply
        .code(201)
        .send({ data: await rollConsoleKey(ctx, principalOfSession(session), request.params.id) });
    },
  );

  app.delete(
    `${CONSOLE_API}/keys/:id`,
    { ...open, schema: { ...consoleNoContent, params: KeyParams } },
    async (request, reply) => {
      const session = await requireSession(ctx, request, write);
      await revokeKey(ctx, principalOfSession(session), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
