// The real service with one sellable production SKU and a large key pool, for POST /orders.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';
import { migrateOnSession } from '../../src/db/migrate.js';
import { buildCheckoutWorld } from '../checkout-world.js';

const config = loadConfig({
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-checkout-')),
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
});
const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '55'.repeat(32) });
await migrateOnSession(ctx);
const world = await buildCheckoutWorld(ctx, Number(process.env.BENCH_CHECKOUT_KEYS ?? 120_000));
const app = await buildApp(ctx);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: address, token: world.token, skuCode: world.skuCode })}\n`);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
