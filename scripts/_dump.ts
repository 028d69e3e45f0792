import { writeFileSync } from 'node:fs';
import { buildAdminApp } from '../src/admin-app.js';
import { buildApp } from '../src/app.js';
import { databaseConfigFrom, loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';

const base = loadConfig({ SDAPI_ADMIN_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'silent', PORT: '8080' });
const config = {
  ...base,
  database: databaseConfigFrom('sqlite::memory:', base.dataDir),
  masterKeyHex: '11'.repeat(32),
  ipPepper: 'test-pepper-0123456789',
};
const handle = openDatabase(config.database);
await migrateToLatest(handle.db, schemaOf(config));
const ctx = await createContext(config, handle);
const app = await buildApp(ctx);
const admin = await buildAdminApp(ctx);
const s = await app.inject({ method: 'GET', url: '/api/seller/v1/openapi.json' });
const a = await admin.inject({ method: 'GET', url: '/admin/v1/openapi.json' });
writeFileSync('/tmp/d19/seller.json', s.body);
writeFileSync('/tmp/d19/admin.json', a.body);
for (const [n, d] of [
  ['seller', s.json()],
  ['admin', a.json()],
] as const) {
  for (const [p, ops] of Object.entries<any>(d.paths))
    for (const [m, op] of Object.entries<any>(ops))
      console.log(n, m.toUpperCase(), p, (op.tags ?? []).join(','), Object.keys(op.responses).join(' '));
}
await app.close();
await admin.close();
await ctx.close();
await handle.close();
