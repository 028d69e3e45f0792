// The real service on PostgreSQL (DATABASE_URL, and DATABASE_REPLICA_URL when set) with the
// checkout world for POST /orders and a second seller whose activity holds
// BENCH_ACTIVITY_ROWS entries, for GET /activity?format=csv (bench/replica.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildAdminApp } from '../../src/admin-app.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';
import { migrateToLatest, schemaOf } from '../../src/db/migrate.js';
import { mintKey } from '../../src/modules/api-keys/api-keys.service.js';
import { createCompany } from '../../src/modules/companies/companies.service.js';
import { buildCheckoutWorld } from '../checkout-world.js';

const config = loadConfig({
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-replica-')),
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
});
const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '55'.repeat(32) });
await migrateToLatest(ctx.db, schemaOf(config));
const world = await buildCheckoutWorld(ctx, Number(process.env.BENCH_CHECKOUT_KEYS ?? 120_000));
const exporter = await createCompany(
  ctx,
  {
    name: 'Bench Exporter',
    country: 'DE',
    productionAccess: true,
    apiAgreementSigned: true,
  },
  ctx.db,
);
const csvKey = await mintKey(
  ctx,
  {
    companyId: exporter.id,
    environment: 'production',
    name: 'bench-csv',
    allowedIps: ['8.8.8.0/24'],
  },
  ctx.db,
);
// Entries without their orders (the foreign key is not checked in this session): the CSV reads
// the entries and the counterparty's name only.
await ctx.db.transaction().execute(async (trx) => {
  await sql`set local session_replication_role = replica`.execute(trx);
  await sql`insert into activity_entries (id, seller_company_id, environment, kind, sign, order_id,
      order_reference, counterparty_company_id, sku_code, quantity, promo_id, buyer_country, economics, created_at)
    select 'bench-' || lpad(i::text, 8, '0'), ${exporter.id}, 'production', 'sale', 1, 'order-' || i,
      'ref-' || i || ',"bench"', ${world.publisherId}, 'BENCH-SKU-001', 1, null,
      '{"declaredCountry":"DE","detectedCountry":"DE","countryMismatch":false,"evidenceRank":2}',
      '{"currencyCode":"EUR","saleMinor":1899,"wholesaleMinor":1200,"wholesaleCurrencyCode":"EUR"}',
      ${Date.UTC(2026, 0, 1)}::bigint + i * 10
    from generate_series(1, ${Number(process.env.BENCH_ACTIVITY_ROWS ?? 1_000_000)}) as i`.execute(trx);
});
await sql`analyze activity_entries`.execute(ctx.db);
const app = await buildApp(ctx);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
// The operator listener: /metrics tells where the CSV's reads ran.
const admin = await (await buildAdminApp(ctx)).listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  `${JSON.stringify({ url: address, admin, token: world.token, skuCode: world.skuCode, csvToken: csvKey.key })}\n`,
);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
