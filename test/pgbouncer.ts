import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './compiled-server.js';

/**
 * A PgBouncer of the test's own in transaction pooling, in front of a PostgreSQL server: its
 * wildcard database entry forwards every database name to that server, so each test file's
 * database is reached through it by name. PgBouncer refuses to run as root: there it runs as
 * `postgres` (else `nobody`), as the private clusters do.
 */
export interface PgBouncer {
  port: number;
  /** `postgres://user@127.0.0.1:PORT/DATABASE` through the pooler. */
  urlOf(database: string): string;
  /** The same database in session pooling (one of `sessionDatabases`): LISTEN, session locks. */
  sessionUrlOf(database: string): string;
  /**
   * Points every database at another server, as an HA manager does after a promotion: the
   * ini is rewritten and RELOADed through the admin console; clients stay connected.
   */
  repoint(serverUrl: string): Promise<void>;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** The server behind it (host and port are read; the database part is ignored). */
  serverUrl: string;
  /** Server connections per database and user (`default_pool_size`). */
  poolSize?: number;
  /** Databases also reached in session pooling, as `<name>_session` (`sessionUrlOf`). */
  sessionDatabases?: string[];
  /** More `[pgbouncer]` settings, `name = value`. */
  settings?: string[];
}

const PGBOUNCER = '/usr/sbin/pgbouncer';

export const pgBouncerInstalled = (): boolean => existsSync(PGBOUNCER);

function unprivilegedIds(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const user of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
      return { uid: id('-u'), gid: id('-g') };
    } catch {}
  }
  throw new Error('no unprivileged user to run PgBouncer as');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true)).once('error', () => done(false));
    socket.setTimeout(1_000, () => done(false));
  });
}

const sessionName = (database: string) => `${database}_session`;

function iniOf(options: PgBouncerOptions, dir: string, port: number, user: string) {
  const server = new URL(options.serverUrl);
  const address = `host=${server.hostname} port=${server.port || 5432}`;
  return [
    '[databases]',
    ...(options.sessionDatabases ?? []).map(
      (d) => `${sessionName(d)} = ${address} dbname=${d} pool_mode=session`,
    ),
    `* = ${address}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize ?? 20}`,
    'max_client_conn = 2000',
    // A dropped test database leaves its pool; the pooler forgets it after this long.
    'autodb_idle_timeout = 30',
    `logfile = ${join(dir, 'log')}`,
    `admin_users = ${user}`,
    ...(options.settings ?? []),
    '',
  ].join('\n');
}

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const user = decodeURIComponent(new URL(options.serverUrl).username || 'postgres');
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(ini, iniOf(options, dir, port, user));
  const ids = unprivilegedIds();
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const child: ChildProcess = spawn(PGBOUNCER, [ini], {
    stdio: 'ignore',
    ...(ids ?? {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let waited = 0; !(await accepts(port)); waited += 50) {
    if (child.exitCode !== null || waited > 10_000) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start (see ${join(dir, 'log')})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const urlOf = (database: string) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    urlOf,
    sessionUrlOf: (database) => urlOf(sessionName(database)),
    async repoint(serverUrl) {
      writeFileSync(ini, iniOf({ ...options, serverUrl }, dir, port, user));
      const admin = new pg.Client({ connectionString: urlOf('pgbouncer') });
      await admin.connect();
      try {
        await admin.query('RELOAD');
      } finally {
        await admin.end();
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
