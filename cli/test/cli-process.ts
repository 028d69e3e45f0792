import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves when stdout matches, or rejects with both streams after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/** `sdapi-seller …` from its sources (tsx), as a separate process a test can Ctrl-C. */
export function spawnCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/src/bin.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let [out, err] = ['', ''];
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = out.match(pattern);
      if (match) return match;
      if (Date.now() > until || child.exitCode !== null) {
        throw new Error(`no ${pattern} in the output:\n${out}\n--- stderr\n${err}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, stdout: () => out, stderr: () => err, exited, waitFor };
}

export async function runCli(args: string[], env: Record<string, string>) {
  const cli = spawnCli(args, env);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook handler: keeps every delivery's headers and raw body, answers 200. */
export class Receiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  port = 0;

  async start(port = 0): Promise<this> {
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  get url() {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  eventIds(): string[] {
    return this.received.map((r) => String(r.headers['x-service-event-id']));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

export async function eventually(check: () => boolean, timeoutMs = 20_000, what = 'the condition') {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
