// What every process of the mixed-load bench starts from, the world's builder and the servers
// alike: the environment's database, the same admin token, quiet logs, webhooks to the bench's
// plain-HTTP receiver, and the service's context and app on them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';

export async function openMixApp() {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-mix-')),
    ...process.env,
    LOG_LEVEL: 'silent',
    SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
    SDAPI_ALLOW_INSECURE_WEBHOOKS: 'true',
  });
  const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '55'.repeat(32) });
  return { ctx, app: await buildApp(ctx) };
}
