// The real service with one hot-drop production SKU, for POST /orders/reserve (bench/reserve.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';
import { migrateToLatest, schemaOf } from '../../src/db/migrate.js';
import { buildCheckoutWorld } from '../checkout-world.js';

const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-reserve-')),
  ...process.env,
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
});
const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '55'.repeat(32) });
await migrateToLatest(ctx.db, schemaOf(config));
const world = await buildCheckoutWorld(ctx, Number(process.env.BENCH_RESERVE_KEYS ?? 40_000));
await ctx.db.updateTable('allocations').set({ hot_drop: 1 }).where('id', '=', world.allocationId).execute();
const app = await buildApp(ctx);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  `${JSON.stringify({ url: address, token: world.token, skuCode: world.skuCode, allocationId: world.allocationId })}\n`,
);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
