import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from './app.js';
import type { AppContext } from './context.js';
import { ADMIN_PREFIX, createListenerApp } from './http/listeners.js';
import type { TypedApp } from './http/typed-app.js';

/**
 * An operator application: the shared contract (validation, ApiError envelope, admin auth,
 * request log and metrics) with `register` mounting routes under /admin/v1. The listener uses
 * every operator route (admin-app.ts); the CLI mounts only those its command calls, so that it
 * starts fast.
 */
export async function buildOperatorApp(
  ctx: AppContext,
  register: (admin: TypedApp) => void | Promise<void>,
): Promise<App> {
  const app = createListenerApp(ctx, 'operator');
  await app.register(async (admin) => register(admin.withTypeProvider<TypeBoxTypeProvider>()), {
    prefix: ADMIN_PREFIX,
  });
  return app;
}
