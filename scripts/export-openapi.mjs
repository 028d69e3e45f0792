// Writes the served OpenAPI documents (seller and operator) of the compiled build to a directory,
// as GET /api/seller/v1/openapi.json and GET /admin/v1/openapi.json answer them, for `redocly lint`
// and client generators. Usage: node scripts/export-openapi.mjs <dir> (after `npm run build`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAdminApp } from '../dist/admin-app.js';
import { buildApp } from '../dist/app.js';
import { databaseConfigFrom, loadConfig } from '../dist/config.js';
import { createContext } from '../dist/create-context.js';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest, schemaOf } from '../dist/db/migrate.js';

const dir = process.argv[2] ?? 'openapi';
// A deployment's PUBLIC_URL names the server; without one, a reserved `.test` name stands in
// (the development default, localhost, is not a server an integrator can call).
const base = loadConfig({
  PUBLIC_URL: 'https://seller-api.test',
  ...process.env,
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'export-openapi-0123456789abcdef',
});
const config = {
  ...base,
  database: databaseConfigFrom('sqlite::memory:', base.dataDir),
  masterKeyHex: base.masterKeyHex ?? '00'.repeat(32),
  ipPepper: base.ipPepper ?? 'export-openapi-pepper',
};
const handle = openDatabase(config.database);
await migrateToLatest(handle.db, schemaOf(config));
const ctx = await createContext(config, handle);
const seller = await buildApp(ctx);
const admin = await buildAdminApp(ctx);
mkdirSync(dir, { recursive: true });
for (const [name, app, url] of [
  ['seller', seller, '/api/seller/v1/openapi.json'],
  ['admin', admin, '/admin/v1/openapi.json'],
]) {
  const reply = await app.inject({ method: 'GET', url });
  if (reply.statusCode !== 200) throw new Error(`${url} answered ${reply.statusCode}`);
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(reply.json(), null, 2)}\n`);
}
await seller.close();
await admin.close();
await ctx.close();
await handle.close();
process.stdout.write(`openapi: wrote ${dir}/seller.json and ${dir}/admin.json\n`);
