// The real service as a server runs it (seller and operator listeners, the background jobs) for
// the mixed-load bench (bench/mix.ts), on the database bench/servers/mix-world.ts built; one or
// more of these serve it (two on PostgreSQL). It prints its pid too, for the soak bench
// (bench/soak.ts) to count the SQLite connections it holds open and to ask for a collection.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAdminApp } from '../../src/admin-app.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/create-context.js';
import { startProcessJobs } from '../../src/jobs/process-jobs.js';
import { MIX_SERVER_SETTINGS } from './mix-settings.js';

const config = loadConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-mix-')),
  ...process.env,
  ...MIX_SERVER_SETTINGS,
});
const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '55'.repeat(32) });
const app = await buildApp(ctx);
const jobs = startProcessJobs(ctx, app.log);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const admin = await (await buildAdminApp(ctx)).listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url, admin, pid: String(process.pid) })}\n`);
// The soak bench (bench/soak.ts) reads the heap after a full collection, which it asks for with
// SIGUSR2 (the bench starts these servers with --expose-gc): what a leak leaves is what survives one.
process.on('SIGUSR2', () => (globalThis as { gc?: () => void }).gc?.());
const stop = () => void jobs.stop().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
