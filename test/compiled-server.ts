import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ADMIN_TOKEN = 'compiled-admin-token-0123456789';
export const MASTER_KEY = 'ab'.repeat(32);
export const IP_PEPPER = 'compiled-pepper-0123456789';

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface CompiledServer {
  process: ChildProcess;
  seller: string;
  admin: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
  dataDir: string;
}

/**
 * `node dist/server.js` (or `command`, such as `npm start`) on embedded SQLite in a fresh data
 * directory, ready when /health/ready answers.
 */
export async function startCompiledServer(
  env: Record<string, string> = {},
  command: string[] = [process.execPath, 'dist/server.js'],
  /** Its own process group, as a terminal's foreground job: `process.kill(-pid)` reaches all of it. */
  options: { detached?: boolean } = {},
): Promise<CompiledServer> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'sdapi-compiled-'));
  const [file = process.execPath, ...args] = command;
  const child = spawn(file, args, {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PORT: String(adminPort),
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'sdapi.sqlite')}`,
      SDAPI_ADMIN_TOKEN: ADMIN_TOKEN,
      SDAPI_MASTER_KEY: MASTER_KEY,
      SDAPI_IP_PEPPER: IP_PEPPER,
      LOG_LEVEL: 'trace',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const admin = `http://127.0.0.1:${adminPort}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited at start:\n${output}`);
    const ready = await fetch(`${admin}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() - started > 90_000) throw new Error(`server not ready after 90 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { process: child, seller: `http://127.0.0.1:${port}`, admin, output: () => output, exited, dataDir };
}
