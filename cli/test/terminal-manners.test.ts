import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { verifyWebhook } from '@sdapi/sdk';
import { describe, expect, it } from 'vitest';
import { HELP } from '../src/help.js';
import { justAfter } from '../src/listen-state.js';
import { localSecretOf, signedHeaders } from '../src/local-secret.js';
import { main } from '../src/main.js';

/** main() with captured streams; `tty` makes stdout and stderr claim to be a terminal. */
async function run(argv: string[], env: Record<string, string> = {}, tty = false) {
  const [out, err] = [new PassThrough(), new PassThrough()];
  let [stdout, stderr] = ['', ''];
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  Object.assign(out, { isTTY: tty });
  Object.assign(err, { isTTY: tty });
  const code = await main(argv, { out, err, env, signal: new AbortController().signal });
  return { code, stdout, stderr };
}

const SANDBOX_KEY = 'service_sk_sbx_0123456789abcdefghijklmnopqrstuv';
const LIVE_KEY = 'service_sk_live_0123456789abcdefghijklmnopqrstuv';

describe('terminal manners', () => {
  it('answers --help for every command, and the root help without one', async () => {
    for (const command of ['listen', 'trigger', 'logs', 'events']) {
      const r = await run([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${HELP[command]}\n`);
    }
    const root = await run([]);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain('Commands:');
  });

  it('answers a mistyped option with one line and the help, exit 2, no stack trace', async () => {
    const r = await run(['listen', '--forward-too', 'http://localhost:3000/webhooks']);
    expect(r.code).toBe(2);
    const [first, blank, ...rest] = r.stderr.split('\n');
    expect(first).toBe("error: Unknown option '--forward-too'");
    expect(blank).toBe('');
    expect(rest.join('\n')).toBe(`${HELP.listen}\n`);
    expect(r.stderr).not.toMatch(/\n\s+at /);

    const unknown = await run(['lsiten']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe("error: unknown command 'lsiten'");
    const missing = await run(['events', 'replay', '--endpoint', 'x'], { SDAPI_API_KEY: SANDBOX_KEY });
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('error: --since is required');
  });

  it('colours only on a terminal, and never under NO_COLOR', async () => {
    const plain = await run(['lsiten']);
    expect(plain.stderr).not.toContain('\u001b[');
    const tty = await run(['lsiten'], {}, true);
    expect(tty.stderr).toContain('\u001b[31merror');
    const noColor = await run(['lsiten'], { NO_COLOR: '1' }, true);
    expect(noColor.stderr).not.toContain('\u001b[');
  });

  it('lists the triggers as JSON lines with --json', async () => {
    const r = await run(['trigger', '--list', '--json']);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { eventType: string });
    expect(rows.map((row) => row.eventType)).toEqual(
      expect.arrayContaining(['order.fulfilled', 'refund.completed', 'order.reserved', 'test.ping']),
    );
  });

  it('refuses a production key for trigger before any call is made', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await run(['trigger', 'order.fulfilled', '--base-url', baseUrl], { SDAPI_API_KEY: LIVE_KEY });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error: trigger works with sandbox keys only: this is a production key, and nothing was sent\n/,
      );
      expect(r.stderr).toContain('hint: use a service_sk_sbx_');
      const viaFlag = await run([
        'trigger',
        'refund.completed',
        '--api-key',
        LIVE_KEY,
        '--base-url',
        baseUrl,
        '--json',
      ]);
      expect(viaFlag.code).toBe(1);
      expect(JSON.parse(viaFlag.stderr).error.message).toMatch(/sandbox keys only/);
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('the local signing secret and position', () => {
  it('is the same for the same key, differs between keys, and is shaped like an endpoint secret', () => {
    expect(localSecretOf(SANDBOX_KEY)).toBe(localSecretOf(SANDBOX_KEY));
    expect(localSecretOf(SANDBOX_KEY)).not.toBe(localSecretOf(`${SANDBOX_KEY}x`));
    expect(localSecretOf(SANDBOX_KEY)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(localSecretOf(SANDBOX_KEY)).not.toContain(SANDBOX_KEY.slice(15));
  });

  it('signs both schemes so that verifyWebhook accepts each alone', () => {
    const secret = localSecretOf(SANDBOX_KEY);
    const body =
      '{"eventId":"evt_1","eventType":"test.ping","eventVersion":1,"createdAt":"2026-01-01T00:00:00.000000Z","data":{}}';
    const headers = signedHeaders(secret, 'evt_1', Math.floor(Date.now() / 1000), body);
    const { 'webhook-signature': standard, ...service } = headers;
    expect(verifyWebhook(body, service, secret).eventId).toBe('evt_1');
    const { 'x-service-signature': _, ...standardOnly } = headers;
    expect(standard).toMatch(/^v1,/);
    expect(verifyWebhook(body, standardOnly, secret).eventId).toBe('evt_1');
  });

  it('moves a feed position by exactly one microsecond, across a second', () => {
    expect(justAfter('2026-05-01T10:00:00.123456Z')).toBe('2026-05-01T10:00:00.123457Z');
    expect(justAfter('2026-05-01T10:00:59.999999Z')).toBe('2026-05-01T10:01:00.000000Z');
    expect(justAfter('2026-05-01T10:00:00Z')).toBe('2026-05-01T10:00:00.000001Z');
  });
});
