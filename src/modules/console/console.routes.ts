import type { AppContext } from '../../context.js';
import { acceptJsonBodiesOnly } from '../../http/json-bodies.js';
import type { TypedApp } from '../../http/typed-app.js';
import type { UsageCounter } from '../finance/index.js';
import type { RequestLogRecorder } from '../request-log/index.js';
import { registerConsoleAllocationRoutes } from './console-allocations.routes.js';
import { CONSOLE_API, registerConsoleAuthRoutes } from './console-auth.routes.js';
import { registerConsoleCatalogRoutes } from './console-catalog.routes.js';
import { registerConsoleFinanceRoutes } from './console-finance.routes.js';
import { registerConsoleHomeRoutes } from './console-home.routes.js';
import { registerConsoleKeyRoutes } from './console-keys.routes.js';
import { registerConsoleLogRoutes } from './console-logs.routes.js';
import { registerConsoleOrderRoutes } from './console-orders.routes.js';
import { registerConsolePages } from './console-pages.js';
import { registerConsoleSettingsRoutes } from './console-settings.routes.js';
import { registerConsoleTeamRoutes } from './console-team.routes.js';
import { registerConsoleUsageRoutes } from './console-usage.routes.js';
import { registerConsoleWebhookRoutes } from './console-webhooks.routes.js';

/** The seller console on the seller listener: its pages at /console, its calls at /console/api. */
export function registerConsole(
  app: TypedApp,
  ctx: AppContext,
  requestLog: RequestLogRecorder,
  usage: UsageCounter,
): void {
  const typed = app;
  acceptJsonBodiesOnly(typed, CONSOLE_API);
  registerConsoleAuthRoutes(typed, ctx);
  registerConsoleHomeRoutes(typed, ctx);
  registerConsoleKeyRoutes(typed, ctx, requestLog);
  registerConsoleTeamRoutes(typed, ctx);
  registerConsoleLogRoutes(typed, ctx, requestLog);
  registerConsoleWebhookRoutes(typed, ctx);
  registerConsoleCatalogRoutes(typed, ctx);
  registerConsoleAllocationRoutes(typed, ctx);
  registerConsoleUsageRoutes(typed, ctx, usage, requestLog);
  registerConsoleSettingsRoutes(typed, ctx);
  registerConsoleOrderRoutes(typed, ctx);
  registerConsoleFinanceRoutes(typed, ctx);
  registerConsolePages(app);
}
