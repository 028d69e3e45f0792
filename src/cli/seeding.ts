import type { AppContext } from '../context.js';
import { seedDemo } from '../modules/demo/demo.service.js';
import { seedSandboxCatalog } from '../modules/sandbox/sandbox.service.js';

export const seedSandbox = (ctx: AppContext) => seedSandboxCatalog(ctx);

export const seedDemoWorld = (ctx: AppContext, allowedIp: string | undefined) =>
  seedDemo(ctx, allowedIp ?? '8.8.8.8');
