import type { AppContext } from '../../context.js';
import type { TypedApp } from '../../http/typed-app.js';

/**
 * The operator module's second door, for the CLI: each loader imports one group of operator
 * routes when a command calls it, so a command never loads the modules it does not use. The
 * front door (index.ts) registers every route at once, which the CLI's start-up cannot afford.
 */
export type AdminRoutes = (admin: TypedApp, ctx: AppContext) => void;

export const listRoutes = async (): Promise<AdminRoutes> =>
  (await import('./lists.admin.js')).registerListAdminRoutes;
export const webhookRoutes = async (): Promise<AdminRoutes> =>
  (await import('./webhooks.admin.js')).registerWebhookAdminRoutes;
export const companyRoutes = async (): Promise<AdminRoutes> =>
  (await import('./companies.admin.js')).registerCompanyAdminRoutes;
export const requestRoutes = async (): Promise<AdminRoutes> =>
  (await import('./allocation-requests.admin.js')).registerAllocationRequestAdminRoutes;
