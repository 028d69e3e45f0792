import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { RequestLogRecorder } from '../request-log/index.js';
import {
  getRequestLogEntry,
  listRequestLog,
  listRequestLogKeys,
  RequestLogEntry,
  RequestLogQuery,
} from '../request-log/index.js';
import { consoleAnswer, consoleData } from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSession } from './console-http.js';

const NoQuery = Type.Object({}, { additionalProperties: false });
const RequestLogPage = Type.Object({
  data: Type.Array(RequestLogEntry),
  meta: Type.Object({ nextCursor: Nullable(Type.String()) }),
});
const LoggedKey = Type.Object({ id: Type.String(), name: Type.String() });

/** The request log page: the same rows and filters as GET /request-logs, for the session's environment. */
export function registerConsoleLogRoutes(app: TypedApp, ctx: AppContext, recorder: RequestLogRecorder): void {
  app.get(
    `${CONSOLE_API}/request-logs`,
    { config: { auth: 'none' }, schema: { ...consoleAnswer(RequestLogPage), querystring: RequestLogQuery } },
    async (request) => {
      const session = await requireSession(ctx, request);
      const page = await listRequestLog(ctx, session, request.query, recorder);
      return { data: page.data, meta: { nextCursor: page.nextCursor } };
    },
  );

  // The key filter's choices: every key with a kept request, named as the seller named it.
  app.get(
    `${CONSOLE_API}/request-logs/keys`,
    { config: { auth: 'none' }, schema: { ...consoleData(Type.Array(LoggedKey)), querystring: NoQuery } },
    async (request) => {
      const session = await requireSession(ctx, request);
      return { data: await listRequestLogKeys(ctx, session, recorder) };
    },
  );

  // One request's page, linkable by its id.
  app.get(
    `${CONSOLE_API}/request-logs/:requestId`,
    {
      config: { auth: 'none' },
      schema: {
        ...consoleData(RequestLogEntry),
        params: Type.Object({ requestId: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: NoQuery,
      },
    },
    async (request) => {
      const session = await requireSession(ctx, request);
      return { data: await getRequestLogEntry(ctx, session, request.params.requestId, recorder) };
    },
  );
}
