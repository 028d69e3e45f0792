// sdapi-seller listen: how long after its commit an event reaches the local handler, polling
// GET /events every LISTEN_INTERVAL_MS (the CLI's default, 250 ms), against the service's own
// push delivery of the same events to a registered endpoint (the baseline, measured beside it).
// Runs the compiled service (`npm run build` first) on SQLite with its demo sandbox key.

import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createSdapiClient } from '@sdapi/sdk';
import { listen } from '../cli/src/listen.js';
import { ListenState } from '../cli/src/listen-state.js';
import { ALWAYS_SKU, usWebOrder } from '../cli/src/sandbox-sale.js';
import { openSession } from '../cli/src/session.js';
import { startCompiledServer } from '../test/compiled-server.js';

const ORDERS = Number(process.env.BENCH_LISTEN_ORDERS ?? 50);
const INTERVAL_MS = 250;

/** Arrival time (ms, wall clock) minus the event's createdAt, per order.fulfilled received. */
async function latencyReceiver() {
  const latencies = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const arrived = Date.now();
      const event = JSON.parse(body) as { eventId: string; eventType: string; createdAt: string };
      if (event.eventType === 'order.fulfilled' && !latencies.has(event.eventId)) {
        latencies.set(event.eventId, arrived - Date.parse(event.createdAt));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url, latencies, close };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
};

export async function benchListen() {
  if (!existsSync('dist/server.js')) throw new Error('dist/server.js is missing: npm run build');
  const server = await startCompiledServer({ LOG_LEVEL: 'warn', SDAPI_ALLOW_INSECURE_WEBHOOKS: '1' });
  const apiKey = server.output().match(/service_sk_sbx_\w+/)?.[0] ?? '';
  const [forwarded, pushed] = [await latencyReceiver(), await latencyReceiver()];
  const stop = new AbortController();
  try {
    const api = createSdapiClient({ baseUrl: server.seller, apiKey });
    await api.POST('/api/seller/v1/webhooks', { body: { url: pushed.url, eventTypes: ['order.fulfilled'] } });
    const session = openSession({ 'api-key': apiKey, 'base-url': server.seller }, {});
    const quiet = new Writable({ write: (_c, _e, done) => done() });
    const running = listen({
      session,
      forwardTo: forwarded.url,
      types: ['order.fulfilled'],
      from: 'now',
      intervalMs: INTERVAL_MS,
      state: new ListenState(server.dataDir, apiKey, server.seller),
      terminal: { out: quiet, err: quiet, env: {}, json: true },
      signal: stop.signal,
    });
    for (let i = 0; i < ORDERS; i++) {
      // A random pause, so orders land at every phase of the polling interval.
      await new Promise((r) => setTimeout(r, Math.random() * 2 * INTERVAL_MS));
      await api.POST('/api/seller/v1/orders', { body: usWebOrder(ALWAYS_SKU, `bench-listen-${i}`, 1999) });
    }
    const until = Date.now() + 30_000;
    while ((forwarded.latencies.size < ORDERS || pushed.latencies.size < ORDERS) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    stop.abort();
    await running;
    const listenMs = [...forwarded.latencies.values()];
    const pushMs = [...pushed.latencies.values()];
    return {
      orders: ORDERS,
      intervalMs: INTERVAL_MS,
      forwarded: listenMs.length,
      listen: { p50: quantile(listenMs, 0.5), p95: quantile(listenMs, 0.95), max: Math.max(...listenMs) },
      push: { p50: quantile(pushMs, 0.5), p95: quantile(pushMs, 0.95) },
    };
  } finally {
    stop.abort();
    forwarded.close();
    pushed.close();
    server.process.kill('SIGTERM');
    await server.exited;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchListen()));
  process.exit(0);
}
