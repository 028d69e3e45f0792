import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../compiled-server.js';

/**
 * PostgreSQL clusters of the test's own (initdb, pg_ctl, pg_basebackup) on free ports in temp
 * dirs, for faults the shared server must never see: restarts, a streaming standby, a promotion.
 */
export interface PrivateCluster {
  url: string;
  port: number;
  stop(mode?: 'immediate' | 'fast'): void;
  start(): void;
  destroy(): void;
}

export interface Standby extends PrivateCluster {
  /** Ends recovery: the standby becomes a primary that takes writes (pg_ctl promote, waits). */
  promote(): void;
}

export interface ClusterOptions {
  /** Extra server settings (`name=value`), for example `synchronous_standby_names=standby1`. */
  settings?: string[];
}

function pgBinDir(): string | null {
  const candidates: string[] = [];
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort().reverse())
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  candidates.push('/usr/local/bin');
  const tools = ['initdb', 'pg_ctl', 'pg_basebackup'];
  return candidates.find((dir) => tools.every((tool) => existsSync(join(dir, tool)))) ?? null;
}

function unprivilegedUser(): string {
  for (const user of ['postgres', 'nobody']) {
    try {
      execFileSync('id', [user], { stdio: 'ignore' });
      return user;
    } catch {}
  }
  throw new Error('no unprivileged user to run PostgreSQL as');
}

/** Runs a PostgreSQL tool; PostgreSQL refuses to run as root, so there as `postgres` (else `nobody`). */
function toolRunner(dir: string) {
  const bin = pgBinDir();
  if (!bin) throw new Error('no initdb, pg_ctl and pg_basebackup found');
  const asUser = process.getuid?.() === 0 ? unprivilegedUser() : null;
  if (asUser) execFileSync('chown', [asUser, dir]);
  return (tool: string, args: string[]) =>
    asUser
      ? execFileSync('runuser', ['-u', asUser, '--', join(bin, tool), ...args], {
          stdio: ['ignore', 'ignore', 'pipe'],
        })
      : execFileSync(join(bin, tool), args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

type Run = ReturnType<typeof toolRunner>;

function serve(run: Run, dir: string, data: string, port: number, settings: string[]) {
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c max_connections=200',
    ...settings.map((s) => `-c ${s}`),
  ].join(' ');
  const start = () => run('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: (mode: 'immediate' | 'fast' = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    start,
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startPrivateCluster(options: ClusterOptions = {}): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-pg-'));
  const data = join(dir, 'data');
  const run = toolRunner(dir);
  // initdb's default pg_hba.conf trusts replication connections from 127.0.0.1 too.
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  return serve(run, dir, data, await freePort(), options.settings ?? []);
}

/**
 * A streaming standby of `primary` (pg_basebackup -R: it follows the primary's WAL and answers
 * reads). It reports itself to the primary as `name` (its cluster_name), the name that
 * `synchronous_standby_names` on the primary refers to.
 */
export async function startStandby(
  primary: PrivateCluster,
  name = 'standby1',
  options: ClusterOptions = {},
): Promise<Standby> {
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-pg-standby-'));
  const data = join(dir, 'data');
  const run = toolRunner(dir);
  run('pg_basebackup', [
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '--no-sync',
  ]);
  const cluster = serve(run, dir, data, await freePort(), [
    `cluster_name=${name}`,
    'hot_standby=on',
    ...(options.settings ?? []),
  ]);
  return { ...cluster, promote: () => run('pg_ctl', ['-D', data, '-w', 'promote']) };
}
