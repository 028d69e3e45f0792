// GET /activity?format=csv over HTTP on embedded SQLite: time and peak RSS growth (server and
// reading client in this one process) while a million activity entries stream out.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { uuidv7 } from '../src/lib/ids.js';
import { mintKey } from '../src/modules/api-keys/api-keys.service.js';
import { createCompany } from '../src/modules/companies/companies.service.js';
import { measureMemory } from './lib.js';

/** Raw inserts on a connection of its own (foreign keys off there: the orders are not needed). */
function seedActivity(path: string, sellerId: string, publisherId: string, count: number) {
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('foreign_keys = OFF');
  const insert = sqlite.prepare(
    `insert into activity_entries (id, seller_company_id, environment, kind, sign, order_id, order_reference,
       counterparty_company_id, sku_code, quantity, promo_id, buyer_country, economics, created_at)
     values (?, ?, 'production', ?, ?, ?, ?, ?, 'BENCH-SKU-001', 1, null, ?, ?, ?)`,
  );
  const buyer = JSON.stringify({
    declaredCountry: 'DE',
    detectedCountry: 'DE',
    countryMismatch: false,
    evidenceRank: 2,
  });
  const economics = JSON.stringify({
    currencyCode: 'EUR',
    saleMinor: 1899,
    wholesaleMinor: 1200,
    wholesaleCurrencyCode: 'EUR',
  });
  const start = Date.UTC(2026, 0, 1);
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const refund = i % 20 === 0;
      insert.run(
        uuidv7(start + i * 10),
        sellerId,
        refund ? 'refund' : 'sale',
        refund ? -1 : 1,
        `order-${i}`,
        `ref-${i},"bench"`,
        publisherId,
        buyer,
        economics,
        start + i * 10,
      );
    }
  });
  for (let i = 0; i < count; i += 50_000) batch(i, Math.min(count, i + 50_000));
  sqlite.close();
}

export async function benchActivityCsv(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-activity-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const ctx = await createContext({ ...config, masterKeyHex: '44'.repeat(32) });
  await migrateToLatest(ctx.db);
  const seller = await createCompany(
    ctx,
    {
      name: 'Bench Seller',
      country: 'DE',
      productionAccess: true,
      apiAgreementSigned: true,
    },
    ctx.db,
  );
  const publisher = await createCompany(ctx, { name: 'Bench Publisher', kind: 'publisher' }, ctx.db);
  const key = await mintKey(
    ctx,
    {
      companyId: seller.id,
      environment: 'production',
      name: 'bench',
      allowedIps: ['8.8.8.0/24'],
    },
    ctx.db,
  );
  if (config.database.engine !== 'sqlite') throw new Error('this scenario runs on embedded SQLite');
  seedActivity(config.database.path, seller.id, publisher.id, count);
  const app = await buildApp(ctx);
  const url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/seller/v1/activity?format=csv`;
  const headers = { authorization: `Bearer ${key.key}`, 'x-forwarded-for': '8.8.8.8' };

  let bytes = 0;
  let lines = 0;
  const { seconds, rssGrowthMb } = await measureMemory(async () => {
    const response = await fetch(url, { headers });
    if (response.status !== 200 || !response.body)
      throw new Error(`GET /activity answered ${response.status}`);
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
  });
  await app.close();
  await ctx.close();
  return {
    rows: lines - 1,
    megabytes: Number((bytes / 1024 / 1024).toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    rssGrowthMb: Number(rssGrowthMb.toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchActivityCsv(Number(process.argv[2] ?? 1_000_000))));
}
