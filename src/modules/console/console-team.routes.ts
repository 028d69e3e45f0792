import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { nextPageUrl } from '../../http/pagination.js';
import { DateTime, Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { instantOf } from '../../lib/clock.js';
import { listAudit } from '../audit/index.js';
import { setCompanyTotpRequirement } from './account.service.js';
import {
  AuditPage,
  consoleAnswer,
  consoleCreated,
  consoleData,
  consoleNoContent,
  InviteSchema,
  TeamSchema,
} from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSession, secretAnswer } from './console-http.js';
import { changeRole, inviteUser, listTeam, removeUser, resetSecondFactor } from './users.service.js';

const open = { config: { auth: 'none' } } as const;
const Role = Type.Union(['owner', 'developer', 'finance', 'viewer'].map((r) => Type.Literal(r)));
const UserParams = Type.Object({ id: Uuid });

/** The owner's pages: the team (users, invites, roles), the second-factor rule and the audit log. */
export function registerConsoleTeamRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(`${CONSOLE_API}/team`, { ...open, schema: consoleData(TeamSchema) }, async (request) => {
    const session = await requireSession(ctx, request);
    return { data: await listTeam(ctx, session.companyId) };
  });

  app.post(
    `${CONSOLE_API}/team/invites`,
    {
      ...secretAnswer,
      schema: {
        ...consoleCreated(InviteSchema),
        body: Type.Object(
          { email: Type.String({ maxLength: 254 }), role: Role },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { capability: 'users:manage' });
      const invite = await inviteUser(ctx, {
        companyId: session.companyId,
        email: request.body.email,
        role: request.body.role as string,
        invitedBy: `user:${session.email}`,
        source: 'console',
      });
      return reply.code(201).send({ data: invite });
    },
  );

  app.put(
    `${CONSOLE_API}/team/users/:id/role`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        params: UserParams,
        body: Type.Object({ role: Role }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { capability: 'users:manage' });
      await changeRole(ctx, session, request.params.id, request.body.role as string);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    `${CONSOLE_API}/team/users/:id`,
    { ...open, schema: { ...consoleNoContent, params: UserParams } },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { capability: 'users:manage' });
      await removeUser(ctx, session, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${CONSOLE_API}/team/users/:id/reset-two-factor`,
    { ...open, schema: { ...consoleNoContent, params: UserParams } },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { capability: 'users:manage' });
      await resetSecondFactor(ctx, session, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${CONSOLE_API}/team/require-totp`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        body: Type.Object({ required: Type.Boolean() }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { capability: 'users:manage' });
      await setCompanyTotpRequirement(ctx, session, request.body.required);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${CONSOLE_API}/audit`,
    {
      ...open,
      schema: {
        ...consoleAnswer(AuditPage),
        querystring: Type.Object(
          {
            actor: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
            action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_.]+$' })),
            from: Type.Optional(DateTime),
            to: Type.Optional(DateTime),
            cursor: Type.Optional(Type.String({ maxLength: 200 })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const session = await requireSession(ctx, request, { capability: 'audit:read' });
      const { from, to, limit = 50, ...rest } = request.query;
      const span = { from: from ? instantOf(from) : undefined, to: to ? instantOf(to) : undefined };
      return listAudit(ctx, session.companyId, { ...rest, ...span, limit }, nextPageUrl(request.url));
    },
  );
}
