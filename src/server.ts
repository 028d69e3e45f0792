import { buildAdminApp } from './admin-app.js';
import { buildApp } from './app.js';
import { createDemoSellerIfEmpty, demoKeyBanner, findDemoSeller, startLines } from './bootstrap.js';
import { loadConfig, loadEnvFile } from './config.js';
import { createContext } from './create-context.js';
import { migrateOnSession } from './db/migrate.js';
import { withEmbeddedSecrets } from './embedded-secrets.js';
import { startProcessJobs } from './jobs/process-jobs.js';
import { seedSandboxCatalog } from './modules/sandbox/index.js';
import { drainListener, exitGracefullyOnSignal } from './shutdown.js';

async function main(): Promise<void> {
  loadEnvFile();
  const config = withEmbeddedSecrets(loadConfig());
  if (!config.masterKeyHex)
    throw new Error('SDAPI_MASTER_KEY (64 hex characters) is required with PostgreSQL');
  const ctx = await createContext(config);
  // The GeoIP database loads at its first lookup: do it now, so a bad SDAPI_GEOIP_DB fails the start.
  ctx.geoIp.countryOf('192.0.2.1');
  await migrateOnSession(ctx);
  let demo: Awaited<ReturnType<typeof createDemoSellerIfEmpty>> = null;
  if (config.seedOnStart) {
    await seedSandboxCatalog(ctx);
    demo = await createDemoSellerIfEmpty(ctx);
  }

  let draining = false;
  const seller = await buildApp(ctx);
  const operator = await buildAdminApp(ctx, { isDraining: () => draining });
  // Webhook delivery and the sweeps, under one job runner (src/jobs, docs/events.md).
  const jobs = startProcessJobs(ctx, seller.log);

  // In order: go unready, stop background work, let in-flight seller requests finish (new
  // connections are refused), close the operator listener (it answers /health/ready 503 until
  // then), close Redis and the database once the tracked background tasks have settled.
  exitGracefullyOnSignal(
    [
      { name: 'unready', run: async () => (draining = true) },
      { name: 'background jobs', run: () => jobs.stop() },
      { name: 'seller listener', run: () => drainListener(seller) },
      { name: 'operator listener', run: () => drainListener(operator) },
      { name: 'database and Redis', run: () => ctx.close() },
    ],
    config.shutdownSeconds,
    seller.log,
  );

  await seller.listen({ port: config.port, host: config.host });
  await operator.listen({ port: config.adminPort, host: config.adminHost });
  if (demo) process.stdout.write(demoKeyBanner(demo, config));
  else {
    const existing = await findDemoSeller(ctx);
    if (existing) process.stdout.write(startLines(existing, config));
  }
}

main().catch((err) => {
  process.stderr.write(`sdapi failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
