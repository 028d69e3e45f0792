// The real service as a server runs it (seller and operator listeners, the background jobs) for
// the mixed-load bench (bench/mix.ts), on the database bench/servers/mix-world.ts built; one or
// more of these serve it (two on PostgreSQL). It prints its pid too, for the soak bench
// (bench/soak.ts) to count the SQLite connections it holds open and to ask for a collection.
import { buildAdminApp } from '../../src/admin-app.js';
import { startProcessJobs } from '../../src/jobs/process-jobs.js';
import { openMixApp } from './mix-context.js';

const { ctx, app } = await openMixApp();
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
