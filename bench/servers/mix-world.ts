// Builds the mixed-load bench's world (bench/mix.ts) in a process of its own, prints what the load
// needs to reach it (a seller token, the hot-drop SKU, a signed-in console owner and one ready
// activity report) and exits: the checkout world with its allocation in hot-drop mode, a
// 200-product catalog and a webhook endpoint at BENCH_MIX_RECEIVER. The servers that take the
// load (bench/servers/mix.ts) then start on the database it built, so their memory is that of
// serving, not of importing the stock (the soak bench, bench/soak.ts, reads it).
import { migrateOnSession } from '../../src/db/migrate.js';
import { createEndpoint } from '../../src/modules/webhooks/index.js';
import { seedCatalog } from '../catalog-fixture.js';
import { buildCheckoutWorld } from '../checkout-world.js';
import { consoleSession } from '../console-session.js';
import { openMixApp } from './mix-context.js';

const { ctx, app } = await openMixApp();
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
await app.close();
await ctx.close();
process.stdout.write(
  `${JSON.stringify({ ...signedIn, token: built.token, skuCode: built.skuCode, reportId })}\n`,
);
