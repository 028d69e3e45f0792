// The seller application built in-process on embedded SQLite in memory, for the generators that
// read what it serves or declares (sdk:generate, console:generate).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, buildApp } from '../src/app.js';
import { databaseConfigFrom, loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';

export async function withInMemoryApp<T>(use: (app: App) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sdapi-generate-'));
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', SDAPI_SEED_ON_START: '0', DATA_DIR: dataDir }),
    database: databaseConfigFrom('sqlite::memory:', dataDir),
    masterKeyHex: '00'.repeat(32),
    ipPepper: 'generate',
    adminToken: 'generate',
  };
  const handle = openDatabase(config.database);
  await migrateToLatest(handle.db, schemaOf(config));
  const ctx = await createContext(config, handle);
  const app = await buildApp(ctx);
  try {
    await app.ready();
    return await use(app);
  } finally {
    await app.close();
    await ctx.close();
    await handle.close();
  }
}
