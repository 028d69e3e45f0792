import { buildApp } from './app.js';
import { createDemoSellerIfEmpty, demoKeyBanner, withEmbeddedSecrets } from './bootstrap.js';
import { loadConfig } from './config.js';
import { createContext } from './context.js';
import { migrateToLatest, schemaOf } from './db/migrate.js';
import { startProcessJobs } from './jobs/process-jobs.js';
import { seedSandboxCatalog } from './modules/sandbox/sandbox.service.js';

async function main(): Promise<void> {
  const config = withEmbeddedSecrets(loadConfig());
  if (!config.masterKeyHex)
    throw new Error('SDAPI_MASTER_KEY (64 hex characters) is required with PostgreSQL');
  const ctx = await createContext(config);
  await migrateToLatest(ctx.db, schemaOf(config));
  let demoToken: string | null = null;
  if (config.seedOnStart) {
    await seedSandboxCatalog(ctx);
    demoToken = await createDemoSellerIfEmpty(ctx);
  }
  const app = await buildApp(ctx);
  // Webhook delivery and the sweeps, under one job runner (src/jobs, docs/events.md).
  const jobs = startProcessJobs(ctx, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await jobs.stop();
    await app.close();
    await ctx.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (demoToken) process.stdout.write(demoKeyBanner(demoToken, config));
}

main().catch((err) => {
  process.stderr.write(`sdapi failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
