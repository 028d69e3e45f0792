// `npm run storefront`: runs the sample integration against a service (the sandbox of `npm start`).
//   SDAPI_BASE_URL=http://localhost:8080 SDAPI_API_KEY=service_sk_sbx_… npm run storefront
// The service must admit a loopback webhook URL: start it with SDAPI_ALLOW_INSECURE_WEBHOOKS=1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStorefront } from './storefront.js';

const apiKey = process.env.SDAPI_API_KEY;
if (!apiKey) {
  process.stderr.write('Set SDAPI_API_KEY to a sandbox key (npm start prints one on first start).\n');
  process.exit(2);
}
const result = await runStorefront({
  baseUrl: process.env.SDAPI_BASE_URL ?? 'http://localhost:8080',
  apiKey,
  journalFile:
    process.env.STOREFRONT_JOURNAL ?? join(mkdtempSync(join(tmpdir(), 'storefront-')), 'journal.json'),
  log: (line) => process.stdout.write(`${line}\n`),
});
const keys = result.recovered.reduce((n, r) => n + r.keys.length, 0);
process.stdout.write(`done: sold ${result.sale.keys.length} key(s), recovered ${keys} after the crash\n`);
