import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { Uuid } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { isoOrNull } from '../../lib/clock.js';
import { auditActorOf, recordAudit } from '../audit/index.js';
import {
  companyView,
  footprintChecks,
  getCompany,
  getFootprint,
  replaceFootprint,
} from '../companies/index.js';
import { FootprintBody } from '../identity/index.js';
import { listNotices, markAllNoticesRead, markNotice } from '../notices/index.js';
import { companyRequiresTotp } from './account.service.js';
import {
  CompanySettingsSchema,
  ConsoleFootprint,
  consoleAnswer,
  consoleData,
  consoleNoContent,
  NoticesPage,
} from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSession } from './console-http.js';
import { principalOfSession } from './sessions.service.js';

const open = { config: { auth: 'none' } } as const;
const footprintView = (f: { countries: string[]; currencies: string[]; updatedAt: number | null }) => ({
  ...f,
  updatedAt: isoOrNull(f.updatedAt),
});

/**
 * Settings: the company profile and standing (production access, agreement), the footprint
 * (the service of PUT /me/footprint, so the same validation and codes) with where orders are
 * checked against it (the gate the order path applies), and the notices.
 */
export function registerConsoleSettingsRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    `${CONSOLE_API}/company`,
    { ...open, schema: { ...consoleData(CompanySettingsSchema) } },
    async (request) => {
      const session = await requireSession(ctx, request);
      const [company, footprint, requireTotp] = await Promise.all([
        getCompany(ctx, session.companyId, ctx.db),
        getFootprint(ctx, session.companyId, ctx.db),
        companyRequiresTotp(ctx, session.companyId),
      ]);
      if (!company) throw fail('NOT_FOUND', 'Your company no longer exists.');
      return {
        data: {
          company: companyView(company),
          footprint: footprintView(footprint),
          footprintChecks: footprintChecks(footprint),
          requireTotp,
        },
      };
    },
  );

  app.put(
    `${CONSOLE_API}/footprint`,
    {
      ...open,
      schema: {
        ...consoleData(ConsoleFootprint),
        body: Type.Object(FootprintBody.properties, { additionalProperties: false }),
      },
    },
    async (request) => {
      const session = await requireSession(ctx, request, { capability: 'footprint:write' });
      const footprint = await replaceFootprint(ctx, session.companyId, request.body);
      await recordAudit(
        ctx,
        {
          companyId: session.companyId,
          ...auditActorOf(principalOfSession(session)),
          action: 'footprint.replaced',
          target: session.companyId,
          detail: { countries: footprint.countries, currencies: footprint.currencies },
        },
        ctx.db,
      );
      return { data: footprintView(footprint) };
    },
  );

  app.get(
    `${CONSOLE_API}/notices`,
    {
      ...open,
      schema: {
        ...consoleAnswer(NoticesPage),
        querystring: Type.Object(
          {
            unreadOnly: Type.Boolean({ default: false }),
            limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
            beforeAt: Type.Optional(Type.Integer({ minimum: 0 })),
            beforeId: Type.Optional(Uuid),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const session = await requireSession(ctx, request);
      const { unreadOnly, limit, beforeAt, beforeId } = request.query;
      const before: [number, string] | undefined =
        beforeAt !== undefined && beforeId !== undefined ? [beforeAt, beforeId] : undefined;
      return listNotices(ctx, scopeOf(session), { unreadOnly, limit, before });
    },
  );

  app.put(
    `${CONSOLE_API}/notices/:id/read`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        params: Type.Object({ id: Uuid }),
        body: Type.Object({ read: Type.Boolean() }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { capability: 'notices:mark' });
      await markNotice(ctx, scopeOf(session), request.params.id, request.body.read, `user:${session.email}`);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${CONSOLE_API}/notices/read-all`,
    { ...open, schema: { ...consoleData(Type.Object({ marked: Type.Integer() })) } },
    async (request) => {
      const session = await requireSession(ctx, request, { capability: 'notices:mark' });
      return { data: { marked: await markAllNoticesRead(ctx, scopeOf(session), `user:${session.email}`) } };
    },
  );
}

const scopeOf = (session: { companyId: string; environment: string }) => ({
  companyId: session.companyId,
  environment: session.environment,
});
