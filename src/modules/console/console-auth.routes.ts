import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { TypedApp } from '../../http/typed-app.js';
import {
  changePassword,
  companyRequiresTotp,
  confirmTotp,
  disableTotp,
  recoveryCodeStatus,
  regenerateRecoveryCodes,
  signOutEverywhere,
  startTotp,
} from './account.service.js';
import {
  consoleData,
  consoleNoContent,
  InviteLookupSchema,
  RecoveryCodesSchema,
  RecoveryStatusSchema,
  RegeneratedCodesSchema,
  SecuritySchema,
  SessionSchema,
  TotpStartSchema,
} from './console.schemas.js';
import {
  checkSameOrigin,
  readSessionCookie,
  requireSession,
  secretAnswer,
  setSessionCookie,
} from './console-http.js';
import { capabilitiesOf } from './roles.js';
import { type ConsoleSession, closeSession, switchEnvironment } from './sessions.service.js';
import { signIn } from './sign-in.service.js';
import { acceptInvite, openInvite } from './users.service.js';

export const CONSOLE_API = '/console/api';
const open = { config: { auth: 'none' } } as const;
const Password = Type.String({ minLength: 1, maxLength: 200 });
const Code = Type.String({ pattern: '^[0-9]{6}$' });
/** Sixteen characters as issued (with hyphens and spaces as anyone types them). */
const RecoveryCode = Type.String({ minLength: 1, maxLength: 40 });
/** The authenticator's code or, in its place, a recovery code: one of the two (checked in the service). */
const SecondFactorBody = Type.Object(
  { code: Type.Optional(Code), recoveryCode: Type.Optional(RecoveryCode) },
  { additionalProperties: false },
);

export const sessionView = (session: ConsoleSession) => ({
  user: { id: session.userId, email: session.email, role: session.role, totpEnabled: session.totpEnabled },
  company: { id: session.companyId, name: session.companyName, productionAccess: session.productionAccess },
  environment: session.environment,
  capabilities: [...capabilitiesOf(session.role)],
  mustEnrolTotp: session.mustEnrolTotp,
  csrfToken: session.csrfToken,
  expiresAt: new Date(session.expiresAt).toISOString(),
});

/** Sign-in, sign-out, invites, password, second factor and the environment switch. */
export function registerConsoleAuthRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    `${CONSOLE_API}/session`,
    { ...secretAnswer, schema: consoleData(SessionSchema) },
    async (request) => {
      const session = await requireSession(ctx, request, { duringTotpEnrolment: true });
      return { data: sessionView(session) };
    },
  );

  app.post(
    `${CONSOLE_API}/sign-in`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        body: Type.Object(
          {
            email: Type.String({ maxLength: 254 }),
            password: Password,
            totpCode: Type.Optional(Type.String({ maxLength: 10 })),
            recoveryCode: Type.Optional(RecoveryCode),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      checkSameOrigin(ctx, request);
      const { id } = await signIn(ctx, request.body, request.clientIp);
      await closeSession(ctx, readSessionCookie(ctx, request));
      setSessionCookie(ctx, reply, id);
      return reply.code(204).send(null);
    },
  );

  app.post(`${CONSOLE_API}/sign-out`, { ...open, schema: consoleNoContent }, async (request, reply) => {
    await requireSession(ctx, request, { duringTotpEnrolment: true });
    await closeSession(ctx, readSessionCookie(ctx, request));
    setSessionCookie(ctx, reply, null);
    return reply.code(204).send(null);
  });

  app.post(
    `${CONSOLE_API}/sign-out-everywhere`,
    { ...open, schema: consoleNoContent },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { duringTotpEnrolment: true });
      await signOutEverywhere(ctx, session);
      setSessionCookie(ctx, reply, null);
      return reply.code(204).send(null);
    },
  );

  const Token = Type.String({ minLength: 20, maxLength: 100 });
  app.post(
    `${CONSOLE_API}/invites/lookup`,
    {
      ...open,
      schema: {
        ...consoleData(InviteLookupSchema),
        body: Type.Object({ token: Token }, { additionalProperties: false }),
      },
    },
    async (request) => {
      checkSameOrigin(ctx, request);
      const invite = await openInvite(ctx, request.body.token);
      return {
        data: {
          email: invite.email,
          role: invite.role,
          expiresAt: new Date(invite.expires_at).toISOString(),
        },
      };
    },
  );

  app.post(
    `${CONSOLE_API}/invites/accept`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        body: Type.Object({ token: Token, password: Password }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      checkSameOrigin(ctx, request);
      const { id } = await acceptInvite(ctx, request.body.token, request.body.password);
      await closeSession(ctx, readSessionCookie(ctx, request));
      setSessionCookie(ctx, reply, id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${CONSOLE_API}/password`,
    {
      ...open,
      schema: {
        ...consoleNoContent,
        body: Type.Object(
          { currentPassword: Password, newPassword: Password },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request, { duringTotpEnrolment: true });
      const { id } = await changePassword(ctx, session, request.clientIp, {
        current: request.body.currentPassword,
        next: request.body.newPassword,
      });
      setSessionCookie(ctx, reply, id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${CONSOLE_API}/totp/start`,
    { ...secretAnswer, schema: consoleData(TotpStartSchema) },
    async (request) => {
      const session = await requireSession(ctx, request, { duringTotpEnrolment: true });
      return { data: await startTotp(ctx, session) };
    },
  );

  app.post(
    `${CONSOLE_API}/totp/confirm`,
    {
      ...secretAnswer,
      schema: {
        ...consoleData(RecoveryCodesSchema),
        body: Type.Object({ code: Code }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const session = await requireSession(ctx, request, { duringTotpEnrolment: true });
      return { data: await confirmTotp(ctx, session, request.body.code) };
    },
  );

  app.post(
    `${CONSOLE_API}/totp/disable`,
    { ...open, schema: { ...consoleNoContent, body: SecondFactorBody } },
    async (request, reply) => {
      const session = await requireSession(ctx, request);
      await disableTotp(ctx, session, request.clientIp, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${CONSOLE_API}/totp/recovery-codes`,
    { ...open, schema: consoleData(RecoveryStatusSchema) },
    async (request) => {
      const session = await requireSession(ctx, request);
      return { data: await recoveryCodeStatus(ctx, session) };
    },
  );

  app.post(
    `${CONSOLE_API}/totp/recovery-codes`,
    { ...secretAnswer, schema: { ...consoleData(RegeneratedCodesSchema), body: SecondFactorBody } },
    async (request) => {
      const session = await requireSession(ctx, request);
      return { data: await regenerateRecoveryCodes(ctx, session, request.clientIp, request.body) };
    },
  );

  app.put(
    `${CONSOLE_API}/environment`,
    {
      // The session it answers carries the CSRF token.
      ...secretAnswer,
      schema: {
        ...consoleData(SessionSchema),
        body: Type.Object(
          { environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const session = await requireSession(ctx, request);
      await switchEnvironment(ctx, session, request.body.environment);
      return { data: sessionView({ ...session, environment: request.body.environment }) };
    },
  );

  app.get(`${CONSOLE_API}/security`, { ...open, schema: consoleData(SecuritySchema) }, async (request) => {
    const session = await requireSession(ctx, request, { duringTotpEnrolment: true });
    return { data: { requireTotp: await companyRequiresTotp(ctx, session.companyId) } };
  });
}
