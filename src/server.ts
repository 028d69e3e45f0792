import { buildApp } from './app.js';
import { createDemoSellerIfEmpty, demoKeyBanner, withEmbeddedSecrets } from './bootstrap.js';
import { loadConfig } from './config.js';
import { createContext, runInBackground } from './context.js';
import { migrateToLatest, schemaOf } from './db/migrate.js';
import { archiveDueProducts } from './modules/catalog/products.service.js';
import { sweepRedemptions } from './modules/checkout/redemptions.service.js';
import { seedSandboxCatalog } from './modules/sandbox/sandbox.service.js';

const SWEEP_INTERVAL_MS = 60_000;

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
  // Keyless redemption notices and scheduled product archives: each record is claimed in its
  // own transaction, so every process may sweep (docs/checkout.md, docs/seller-reads.md).
  const sweeper = setInterval(() => {
    void runInBackground(ctx, () => sweepRedemptions(ctx));
    void runInBackground(ctx, () => archiveDueProducts(ctx));
  }, SWEEP_INTERVAL_MS);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(sweeper);
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
