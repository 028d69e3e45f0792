import type { AppContext } from '../../context.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { RequestLogRecorder } from '../request-log/request-log.recorder.js';
import { registerConsoleAuthRoutes } from './console-auth.routes.js';
import { registerConsoleHomeRoutes } from './console-home.routes.js';
import { registerConsoleKeyRoutes } from './console-keys.routes.js';
import { registerConsoleLogRoutes } from './console-logs.routes.js';
import { registerConsolePages } from './console-pages.js';
import { registerConsoleTeamRoutes } from './console-team.routes.js';
import { registerConsoleWebhookRoutes } from './console-webhooks.routes.js';

/** The seller console on the seller listener: its pages at /console, its calls at /console/api. */
export function registerConsole(app: TypedApp, ctx: AppContext, requestLog: RequestLogRecorder): void {
  const typed = app;
  registerConsoleAuthRoutes(typed, ctx);
  registerConsoleHomeRoutes(typed, ctx);
  registerConsoleKeyRoutes(typed, ctx, requestLog);
  registerConsoleTeamRoutes(typed, ctx);
  registerConsoleLogRoutes(typed, ctx, requestLog);
  registerConsoleWebhookRoutes(typed, ctx);
  registerConsolePages(app);
}
