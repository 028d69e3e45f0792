import { afterAll, beforeAll } from 'vitest';
import { type CompiledServer, startCompiledServer } from './compiled-server.js';
import { ENGINE } from './harness.js';

/**
 * The SDK and the sample storefront are tested as an integrator meets the service: a real
 * `node dist/server.js` process over HTTP, in the embedded (SQLite) mode `npm start` gives, with
 * the demo seller's sandbox key it prints. The engine under the service is the service suite's
 * concern, so these files run once, in the SQLite run, and skip in the PostgreSQL run.
 */
export const SANDBOX_SERVICE_SKIPPED = ENGINE === 'postgres';

export interface SandboxService {
  baseUrl: string;
  apiKey: string;
  server: CompiledServer;
}

export function useSandboxService(env: Record<string, string> = {}): SandboxService {
  const holder = {} as SandboxService;
  beforeAll(async () => {
    const server = await startCompiledServer({
      LOG_LEVEL: 'warn',
      SDAPI_ALLOW_INSECURE_WEBHOOKS: '1',
      ...env,
    });
    const apiKey = server.output().match(/service_sk_sbx_\w+/)?.[0];
    if (!apiKey) throw new Error(`no demo key in the start output:\n${server.output()}`);
    Object.assign(holder, { baseUrl: server.seller, apiKey, server });
  });
  afterAll(async () => {
    if (!holder.server) return;
    holder.server.process.kill('SIGTERM');
    await holder.server.exited;
  });
  return holder;
}
