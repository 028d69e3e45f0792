import type { AppContext } from '../../context.js';
import type { TypedApp } from '../../http/typed-app.js';
import { integrationStatus } from '../identity/index.js';
import { ChecklistSchema, consoleData } from './console.schemas.js';
import { CONSOLE_API } from './console-auth.routes.js';
import { requireSellerSession } from './console-http.js';
import { readinessChecklist } from './readiness.service.js';
import { principalOfSession } from './sessions.service.js';

/** Home: the integration readiness checklist, each item with the console page that completes it. */
export function registerConsoleHomeRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    `${CONSOLE_API}/home`,
    { config: { auth: 'none' }, schema: consoleData(ChecklistSchema) },
    async (request) => {
      const { session, seller } = await requireSellerSession(ctx, request);
      const status = await integrationStatus(ctx, principalOfSession(session), seller);
      return { data: await readinessChecklist(ctx, session, status) };
    },
  );
}
