// The real service as a server runs it (seller and operator listeners, the background jobs) for
// the mixed-load bench (bench/mix.ts): the checkout world with its allocation in hot-drop mode, a
// 200-product catalog, a webhook endpoint at BENCH_MIX_RECEIVER, a signed-in console owner and one
// ready activity report. With BENCH_MIX_JOIN=1 it builds nothing and serves the database another
// mix server built (a second process on PostgreSQL). It prints its pid too, for the soak bench
// (bench/soak.ts) to count the SQLite connections it holds open.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAdminApp } from '../../src/admin-app.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';
import { migrateOnSession } from '../../src/db/migrate.js';
import { startProcessJobs } from '../../src/jobs/process-jobs.js';
import { createEndpoint } from '../../src/modules/webhooks/webhooks.service.js';
import { seedCatalog } from '../catalog-fixture.js';
import { buildCheckoutWorld } from '../checkout-world.js';
import { consoleSession } from '../console-session.js';

const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-mix-')),
  ...process.env,
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
  SDAPI_ALLOW_INSECURE_WEBHOOKS: 'true',
});
const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '55'.repeat(32) });
const app = await buildApp(ctx);
let world: Record<string, string> = {};
if (process.env.BENCH_MIX_JOIN !== '1') {
  await migrateOnSession(ctx);
  const built = await buildCheckoutWorld(ctx, Number(process.env.BENCH_MIX_KEYS ?? 100_000));
  await ctx.db.updateTable('allocations').set({ hot_drop: 1 }).where('id', '=', built.allocationId).execute();
  await seedCatalog(ctx, built.sellerId, 200);
  const seller = {
    companyId: built.sellerId,
    environment: 'production',
    keyId: 'bench-mix',
    keyName: 'bench mix',
  } as Parameters<typeof createEndpoint>[1];
  await createEndpoint(ctx, seller, { url: String(process.env.BENCH_MIX_RECEIVER) });
  const signedIn = await consoleSession(ctx, app, built.sellerId);
  const report = await app.inject({
    method: 'POST',
    url: '/console/api/finance/reports',
    headers: { cookie: signedIn.cookie, 'x-csrf-token': signedIn.csrf },
    payload: {},
  });
  const reportId = String(report.json().reportId);
  for (let status = ''; status !== 'ready'; ) {
    await new Promise((r) => setTimeout(r, 50));
    const read = await app.inject({
      url: `/console/api/finance/reports/${reportId}`,
      headers: { cookie: signedIn.cookie },
    });
    status = read.json().data?.status;
    if (status === 'failed' || read.statusCode !== 200) throw new Error(`mix report: ${read.body}`);
  }
  world = { ...signedIn, token: built.token, skuCode: built.skuCode, reportId };
}
const jobs = startProcessJobs(ctx, app.log);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const admin = await (await buildAdminApp(ctx)).listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url, admin, pid: String(process.pid), ...world })}\n`);
const stop = () => void jobs.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
