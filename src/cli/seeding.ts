import type { AppContext } from '../context.js';
import { seedDemo } from '../modules/demo/index.js';
import { seedSandboxCatalog } from '../modules/sandbox/index.js';

export const seedSandbox = (ctx: AppContext) => seedSandboxCatalog(ctx);

/** The demo world and its production key, with how to call that key from this machine. */
export const seedDemoWorld = async (ctx: AppContext, allowedIp: string | undefined) => ({
  ...(await seedDemo(ctx, allowedIp ?? '8.8.8.8')),
  localUse:
    'Production keys always carry an IP allowlist of public addresses, so from this machine this key answers 403 IP_NOT_ALLOWED. For local development start the service with SDAPI_DEV_LOOPBACK_ALLOWLIST=1: callers on the same machine then pass allowlists (refused with PostgreSQL or NODE_ENV=production).',
});
