// Webhooks: signed deliveries per second to a local receiver against bare signed POSTs (both
// HMACs and keep-alive HTTP straight from node, no database, none of our code), and commit-to-receipt latency of order.fulfilled,
// on SQLite and, when reachable, PostgreSQL. The job runner runs in this process as in a server.

import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';
import { listenForWakeups } from '../src/jobs/pg-wakeups.js';
import { JobRunner } from '../src/jobs/runner.js';
import { createCompany } from '../src/modules/companies/companies.service.js';
import { emit } from '../src/modules/events/outbox.service.js';
import { DEFAULT_LIMITS } from '../src/modules/webhooks/delivery.service.js';
import { registerWebhookJobs } from '../src/modules/webhooks/webhooks.jobs.js';
import { createEndpoint } from '../src/modules/webhooks/webhooks.service.js';
import { dropPgSchema, freshPgSchema } from './checkout.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2500);
const ENDPOINTS = 4;
const LATENCY_SAMPLES = 200;

/**
 * A local webhook receiver. `delayMs` holds each answer that long (a slow receiver); `fails`
 * picks events whose first delivery is answered 500, and `retried` keeps when (epoch ms) each of
 * them arrived again.
 */
export function receiver(options: { delayMs?: number; fails?: (id: string) => boolean } = {}) {
  const arrivals = new Map<string, number>();
  const failed = new Set<string>();
  const retried = new Map<string, number>();
  let count = 0;
  const server = createServer((req, res) => {
    const id = String(req.headers['x-service-event-id']);
    req.resume();
    req.on('end', () => {
      count += 1;
      if (failed.has(id) && !retried.has(id)) retried.set(id, Date.now());
      const first = !arrivals.has(id);
      if (first) arrivals.set(id, performance.now());
      const fail = first && options.fails?.(id) === true;
      if (fail) failed.add(id);
      const answer = () => res.writeHead(fail ? 500 : 204).end();
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  return new Promise<{
    url: string;
    arrivals: Map<string, number>;
    retried: Map<string, number>;
    failed: Set<string>;
    count: () => number;
    close(): void;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        arrivals,
        retried,
        failed,
        count: () => count,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 2));
};
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/**
 * The baseline: the minimal work of a signed delivery, without our code: both signatures
 * (service and Standard Webhooks) computed with node:crypto, POSTed over a keep-alive agent to
 * the same receiver, as many at once as the worker sends (DEFAULT_LIMITS.total), no database.
 */
async function bareSignedPosts(url: string, total: number): Promise<number> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const standardKey = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const agent = new Agent({ keepAlive: true, maxSockets: DEFAULT_LIMITS.total });
  const target = new URL(url);
  const post = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const id = `evt_${n}`;
      const body = JSON.stringify({
        eventId: id,
        eventType: 'product.updated',
        data: { productId: `p${n}` },
      });
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
      const std = createHmac('sha256', standardKey).update(`${id}.${t}.${body}`).digest('base64');
      const req = request(target, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-service-event-id': id,
          'x-service-signature': `t=${t},v1=${v1}`,
          'webhook-id': id,
          'webhook-timestamp': String(t),
          'webhook-signature': `v1,${std}`,
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.end(body);
    });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: DEFAULT_LIMITS.total }, async () => {
      while (next < total) await post(next++);
    }),
  );
  const rate = Math.round(total / ((performance.now() - started) / 1000));
  agent.destroy();
  return rate;
}

async function benchEngine(engine: string, env: Record<string, string>) {
  const config = {
    ...loadConfig({ ...env, LOG_LEVEL: 'silent' }),
    masterKeyHex: '66'.repeat(32),
    allowInsecureWebhooks: true,
  };
  const ctx = await createContext(config);
  await migrateToLatest(ctx.db, schemaOf(config));
  const company = await createCompany(ctx, { name: 'Bench Seller', country: 'DE' }, ctx.db);
  const principal = {
    companyId: company.id,
    environment: 'production',
    keyId: 'bench-webhooks',
    keyName: 'bench webhooks',
  } as Parameters<typeof createEndpoint>[1];
  const rx = await receiver();
  for (let i = 0; i < ENDPOINTS; i++) await createEndpoint(ctx, principal, { url: `${rx.url}?e=${i}` });
  const recipient = [{ companyId: company.id, environment: 'production' }];
  const runner = new JobRunner((job, err) => console.error(job, err));
  registerWebhookJobs(ctx, runner);
  const wakeups = listenForWakeups(config.database, runner);
  runner.start();
  await new Promise((r) => setTimeout(r, 300));

  // Throughput: EVENTS events in transactions of 50, each to every endpoint.
  const deliveries = EVENTS * ENDPOINTS;
  const started = performance.now();
  for (let b = 0; b < EVENTS / 50; b++) {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 50; i++)
        await emit(ctx, trx, recipient, 'product.updated', {
          productId: `p${b}-${i}`,
          updatedAt: new Date().toISOString(),
        });
    });
  }
  await waitFor(() => rx.count() >= deliveries);
  const perSecond = Math.round(deliveries / ((performance.now() - started) / 1000));

  // Latency: one order.fulfilled at a time, commit to first receipt.
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const [id] = await ctx.db.transaction().execute((trx) =>
      emit(ctx, trx, recipient, 'order.fulfilled', {
        orderReference: `lat-${i}`,
        skuCode: 'BENCH-001',
        quantity: 1,
        pulled: 1,
        fulfilledAt: new Date().toISOString(),
      }),
    );
    const committed = performance.now();
    await waitFor(() => rx.arrivals.has(id!));
    latencies.push(rx.arrivals.get(id!)! - committed);
    await new Promise((r) => setTimeout(r, 5));
  }
  latencies.sort((a, b) => a - b);
  await wakeups.close();
  await runner.stop();
  const bare = await bareSignedPosts(rx.url, deliveries);
  rx.close();
  await ctx.close();
  return {
    engine,
    deliveries,
    perSecond,
    bare,
    p50: Number(percentile(latencies, 0.5).toFixed(1)),
    p99: Number(percentile(latencies, 0.99).toFixed(1)),
  };
}

export async function benchWebhooks() {
  const results = [
    await benchEngine('sqlite', { DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-webhooks-')) }),
  ];
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = await freshPgSchema(pgUrl);
  if (schema) {
    try {
      results.push(await benchEngine('postgres', { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema }));
    } finally {
      await dropPgSchema(pgUrl, schema);
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchWebhooks()));
  process.exit(0);
}
