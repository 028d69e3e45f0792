// `npm run storefront`: runs the sample integration against a service (the sandbox of `npm start`).
//   SDAPI_BASE_URL=http://localhost:8080 SDAPI_API_KEY=service_sk_sbx_… npm run storefront
// SDAPI_BASE_URL is the service's address (default http://localhost:8080; a service started with
// another PORT needs it). The service must admit a loopback webhook URL: start it with
// SDAPI_ALLOW_INSECURE_WEBHOOKS=1. A failure is one line on stderr and exit status 1.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStorefront } from './storefront.js';

const apiKey = process.env.SDAPI_API_KEY;
if (!apiKey) {
  process.stderr.write('Set SDAPI_API_KEY to a sandbox key (npm start prints one on first start).\n');
  process.exit(2);
}
const baseUrl = process.env.SDAPI_BASE_URL ?? 'http://localhost:8080';

/** Why the run stopped, in one line a person can act on (no stack trace). */
function explain(err: unknown): string {
  const cause = (err as { cause?: { code?: string } })?.cause?.code;
  if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND' || cause === 'EAI_AGAIN')
    return `no service answers at ${baseUrl}: start it (npm start) or set SDAPI_BASE_URL to its address, e.g. http://localhost:3000 for PORT=3000`;
  const api = err as { code?: string; message?: string; hint?: string };
  if (api?.code && api.message) return `${api.code}: ${api.message}${api.hint ? ` (${api.hint})` : ''}`;
  return err instanceof Error ? err.message : String(err);
}

let result: Awaited<ReturnType<typeof runStorefront>>;
try {
  result = await runStorefront({
    baseUrl,
    apiKey,
    journalFile:
      process.env.STOREFRONT_JOURNAL ?? join(mkdtempSync(join(tmpdir(), 'storefront-')), 'journal.json'),
    log: (line) => process.stdout.write(`${line}\n`),
  });
} catch (err) {
  process.stderr.write(`storefront: ${explain(err)}\n`);
  process.exit(1);
}
const keys = result.recovered.reduce((n, r) => n + r.keys.length, 0);
process.stdout.write(`done: sold ${result.sale.keys.length} key(s), recovered ${keys} after the crash\n`);
