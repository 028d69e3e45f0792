import swagger from '@fastify/swagger';
import type { App } from './app.js';
import type { AppContext } from './context.js';
import { openApiOptions, operatorUrlOf } from './http/openapi/document.js';
import type { TypedApp } from './http/typed-app.js';
import { registerOperatorRoutes } from './modules/operator/index.js';
import { registerWebhookMetrics } from './modules/webhooks/index.js';
import { registerProbeRoutes } from './observability/probes.routes.js';
import { buildOperatorApp } from './operator-app.js';

/** Every /admin/v1 route and its OpenAPI document (`sdapi admin` mounts the same). */
export async function registerAdminApi(admin: TypedApp, ctx: AppContext): Promise<void> {
  await admin.register(swagger, openApiOptions('admin', ctx.config.publicUrl, operatorUrlOf(ctx.config)));
  registerOperatorRoutes(admin, ctx, () => admin.swagger());
}

export interface OperatorListenerOptions {
  /** True once shutdown began: `/health/ready` answers 503 so load balancers stop routing here. */
  isDraining?: () => boolean;
}

/**
 * The operator application, served on its own listener (ADMIN_HOST:ADMIN_PORT, loopback by
 * default): `/admin/v1` and its OpenAPI document, `/metrics`, `/health/live`, `/health/ready`.
 * The seller port has none of these routes (docs/operations.md).
 */
export async function buildAdminApp(ctx: AppContext, options: OperatorListenerOptions = {}): Promise<App> {
  const app = await buildOperatorApp(ctx, (admin) => registerAdminApi(admin, ctx));
  registerWebhookMetrics(ctx);
  registerProbeRoutes(app, ctx, options.isDraining ?? (() => false));
  return app;
}
