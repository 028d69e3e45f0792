import { spawn } from 'node:child_process';
import { startPgBouncer } from '../test/pgbouncer.js';

/**
 * `tsx scripts/with-pgbouncer.ts COMMAND...`: starts a PgBouncer in transaction pooling in front
 * of DATABASE_URL's server, runs COMMAND with TEST_PGBOUNCER_URL naming it (the test harness then
 * connects each test file's app through it), stops it and exits with COMMAND's status.
 */
const [command, ...args] = process.argv.slice(2);
const serverUrl = process.env.DATABASE_URL;
if (!command || !serverUrl?.startsWith('postgres')) {
  process.stderr.write('usage: DATABASE_URL=postgres://… tsx scripts/with-pgbouncer.ts COMMAND [ARGS…]\n');
  process.exit(2);
}
const pooler = await startPgBouncer({ serverUrl });
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, TEST_PGBOUNCER_URL: pooler.urlOf('postgres') },
});
const status = await new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
await pooler.stop();
process.exit(status);
