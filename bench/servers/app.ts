// The real service on a throwaway embedded database, with one seller key for the load.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';
import { migrateToLatest, schemaOf } from '../../src/db/migrate.js';
import { mintKey } from '../../src/modules/api-keys/api-keys.service.js';
import { createCompany } from '../../src/modules/companies/companies.service.js';
import { seedCatalog } from '../catalog-fixture.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sdapi-bench-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  SDAPI_ADMIN_TOKEN: 'bench-admin-token-0123456789',
});
const ctx = await createContext(config);
await migrateToLatest(ctx.db, schemaOf(config));
const company = await createCompany(
  ctx,
  {
    name: 'Bench Seller',
    country: 'DE',
    productionAccess: true,
    apiAgreementSigned: true,
  },
  ctx.db,
);
const production = await mintKey(
  ctx,
  {
    companyId: company.id,
    environment: 'production',
    name: 'bench',
    allowedIps: ['8.8.8.0/24'],
  },
  ctx.db,
);
await seedCatalog(ctx, company.id, 200);
const app = await buildApp(ctx);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: address, productionToken: production.key })}\n`);
process.on('SIGTERM', () => process.exit(0));
