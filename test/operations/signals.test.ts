import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type CompiledServer, startCompiledServer } from '../compiled-server.js';
import { ENGINE } from '../harness.js';

/**
 * Ctrl-C on `npm start`: the terminal sends SIGINT to its whole foreground process group (npm,
 * the shell npm starts and the server), and npm forwards one more. The server must take that
 * pair as one request to stop and drain; only a signal sent later forces the exit.
 * Engine-independent (a compiled server on SQLite): runs in the SQLite run only.
 */

/**
 * POST /keys with the demo key the first start printed, its body arriving `holdMs` after its
 * headers: authenticated, so in flight across the signal until the body is in.
 */
function slowRequest(server: CompiledServer, holdMs: number) {
  const token = server.output().match(/service_sk_sbx_\w+/)?.[0];
  expect(token).toBeDefined();
  return new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({ name: 'signal test' });
    const req = request(`${server.seller}/api/seller/v1/keys`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(body.slice(0, 5));
    setTimeout(() => req.end(body.slice(5)), holdMs);
  });
}

const group = (server: CompiledServer, signal: NodeJS.Signals) =>
  process.kill(-(server.process.pid ?? 0), signal);

describe.skipIf(ENGINE === 'postgres')('Ctrl-C on npm start', () => {
  it('drains once when the terminal and npm both send SIGINT, and exits 0', async () => {
    const server = await startCompiledServer({ npm_config_loglevel: 'silent' }, ['npm', 'start'], {
      detached: true,
    });
    try {
      const inFlight = slowRequest(server, 1_500);
      await new Promise((resolve) => setTimeout(resolve, 200));
      group(server, 'SIGINT');
      // npm forwards the signal to its child as well; a second press arrives as one more.
      expect(await inFlight).toBe(201);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('shut down cleanly');
      expect(server.output()).not.toContain('second signal during shutdown');
    } finally {
      if (server.process.exitCode === null) group(server, 'SIGKILL');
    }
  }, 120_000);

  it('forces the exit (status 1) on a second Ctrl-C pressed later, during the drain', async () => {
    const server = await startCompiledServer({}, [process.execPath, 'dist/server.js'], { detached: true });
    try {
      const inFlight = slowRequest(server, 5_000).catch(() => 0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      group(server, 'SIGINT');
      group(server, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(server.process.exitCode).toBeNull();
      group(server, 'SIGINT');
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('second signal during shutdown');
      expect(server.output()).not.toContain('shut down cleanly');
      await inFlight;
    } finally {
      if (server.process.exitCode === null) group(server, 'SIGKILL');
    }
  }, 120_000);
});
