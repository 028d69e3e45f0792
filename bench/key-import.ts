// Key import on embedded SQLite: keys per second and peak RSS growth for a large file.

import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { requireAllocation } from '../src/modules/allocations/allocations.service.js';
import { createProduct } from '../src/modules/catalog/products.service.js';
import { createRelease, createSku } from '../src/modules/catalog/releases.service.js';
import { createCompany } from '../src/modules/companies/companies.service.js';
import { importKeys } from '../src/modules/inventory/key-import.service.js';
import { createPool } from '../src/modules/inventory/pools.service.js';
import { measureMemory } from './lib.js';

export async function benchKeyImport(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-import-'));
  const file = join(dir, 'keys.txt');
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) {
    if (
      !out.write(`KEY-${i.toString(36).padStart(6, '0')}-${(i * 7919).toString(36).padStart(6, '0')}-ABCDE\n`)
    )
      await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const ctx = await createContext({ ...config, masterKeyHex: '22'.repeat(32) });
  await migrateToLatest(ctx.db);
  const pool = await ctx.db.transaction().execute(async (trx) => {
    const publisher = await createCompany(ctx, { name: 'Bench Publisher', kind: 'publisher' }, trx);
    const product = await createProduct(ctx, trx, publisher.id, 'production', {
      name: 'Bench',
      slug: 'bench',
      status: 'active',
    });
    const release = await createRelease(ctx, trx, product.id, { name: 'Standard', state: 'available' });
    const sku = await createSku(ctx, trx, release.id, { code: 'BENCH-001', platform: 'steam' });
    return createPool(ctx, trx, { kind: 'shared', skuId: sku.id }, requireAllocation);
  });

  const {
    result: summary,
    seconds,
    rssGrowthMb,
  } = await measureMemory(() => importKeys(ctx, pool.id, createReadStream(file)));
  await ctx.close();
  return {
    keys: summary.imported,
    seconds: Number(seconds.toFixed(2)),
    keysPerSecond: Math.round(summary.imported / seconds),
    rssGrowthMb: Number(rssGrowthMb.toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchKeyImport(Number(process.argv[2] ?? 1_000_000))));
}
