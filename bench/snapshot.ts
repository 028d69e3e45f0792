// A large ndjson snapshot on embedded SQLite: time and peak RSS growth while streaming it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { snapshotMeta, snapshotStream } from '../src/modules/catalog/snapshot.service.js';
import { createCompany } from '../src/modules/companies/companies.service.js';
import { seedCatalog } from './catalog-fixture.js';
import { measureMemory } from './lib.js';

export async function benchSnapshot(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-snapshot-'));
  const ctx = await createContext({
    ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }),
    masterKeyHex: '33'.repeat(32),
  });
  await migrateToLatest(ctx.db);
  const seller = await createCompany(ctx, { name: 'Bench Seller', country: 'DE' }, ctx.db);
  await seedCatalog(ctx, seller.id, count);
  const scope = { sellerId: seller.id, environment: 'production' as const };

  let bytes = 0;
  let lines = 0;
  const { seconds, rssGrowthMb } = await measureMemory(async () => {
    const meta = await snapshotMeta(ctx, scope);
    await pipeline(
      snapshotStream(ctx, scope, meta, 'ndjson', ['en']),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          for (const byte of chunk) if (byte === 10) lines++;
          done();
        },
      }),
    );
  });
  await ctx.close();
  return {
    products: lines - 1,
    megabytes: Number((bytes / 1024 / 1024).toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    rssGrowthMb: Number(rssGrowthMb.toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchSnapshot(Number(process.argv[2] ?? 100_000))));
}
