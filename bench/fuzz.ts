// The long fuzz run: 100,000 generated bad requests from the served OpenAPI document
// against one engine in a fresh process, plus malformed HTTP over a socket; reports 5xx,
// envelope violations, and RSS / heap after a full GC at checkpoints, to tell a leak from warm-up.
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { databaseConfigFrom, loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';
import { makeSeller } from '../test/factories.js';
import { fuzzOperations, fuzzRawHttp } from '../test/fuzz/run.js';
import type { TestApp } from '../test/harness.js';
import { dropPgSchema, freshPgSchema } from './checkout.js';

const MB = 1024 * 1024;

export interface FuzzBenchResult {
  engine: string;
  requests: number;
  rawRequests: number;
  serverErrors: number;
  envelopeViolations: number;
  examples: string[];
  seconds: number;
  /** After a full GC, at each checkpoint (the first after warm-up). */
  rssMb: number[];
  heapMb: number[];
  verdict: string;
}

function memory() {
  global.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / MB, heap: heapUsed / MB };
}

/**
 * A leak grows with the number of requests; warm-up (JIT, bounded caches: idempotency replays,
 * auth, rate-limit buckets, statement caches) stops growing. So the verdict compares the second
 * half of the run with the first.
 */
function verdictOf(heap: number[]): string {
  const mid = heap[Math.floor((heap.length - 1) / 2)]!;
  const secondHalf = heap.at(-1)! - mid;
  return secondHalf > 16
    ? `LEAK SUSPECTED: heap grew ${secondHalf.toFixed(1)} MB over the second half`
    : `no leak: heap grew ${secondHalf.toFixed(1)} MB over the second half (bounded caches warm up first)`;
}

export async function benchFuzz(engine: 'sqlite' | 'postgres', requests: number): Promise<FuzzBenchResult> {
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-fuzz-'));
  const schema = engine === 'postgres' ? await freshPgSchema(pgUrl) : null;
  if (engine === 'postgres' && !schema) throw new Error(`PostgreSQL at ${pgUrl} unreachable`);
  const config = {
    ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SDAPI_ADMIN_TOKEN: 'fuzz-admin-token-0123456789' }),
    database: schema ? databaseConfigFrom(pgUrl, dir, schema) : databaseConfigFrom(undefined, dir),
    masterKeyHex: '66'.repeat(32),
    ipPepper: 'fuzz-pepper-0123456789',
  };
  const ctx = await createContext(config);
  try {
    await migrateToLatest(ctx.db, schemaOf(config));
    const app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const t = { ctx } as TestApp;
    const sellers = [await makeSeller(t), await makeSeller(t, { environment: 'production' })];
    const options = { auth: sellers.map((s) => s.auth), remoteAddress: '8.8.8.8' };
    // Warm-up: JIT, statement caches and connection pools before the first sample.
    await fuzzOperations(app, '/api/seller/v1/openapi.json', { ...options, seed: 1, requests: 2_000 });
    const samples = [memory()];
    const started = performance.now();
    const every = Math.max(1, Math.floor(requests / 10));
    const report = await fuzzOperations(app, '/api/seller/v1/openapi.json', {
      ...options,
      seed: 13,
      requests,
      checkpoint: { every, run: () => void samples.push(memory()) },
    });
    const raw = await fuzzRawHttp((app.server.address() as AddressInfo).port, 13, 500);
    const seconds = (performance.now() - started) / 1000;
    await app.close();
    const heapMb = samples.map((s) => Number(s.heap.toFixed(1)));
    return {
      engine,
      requests: report.requests,
      rawRequests: raw.requests,
      serverErrors: report.serverErrors + raw.serverErrors,
      envelopeViolations: report.envelopeViolations + raw.envelopeViolations,
      examples: [...report.examples, ...raw.examples].slice(0, 5),
      seconds: Number(seconds.toFixed(1)),
      rssMb: samples.map((s) => Number(s.rss.toFixed(1))),
      heapMb,
      verdict: verdictOf(heapMb),
    };
  } finally {
    await ctx.close();
    if (schema) await dropPgSchema(pgUrl, schema);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [engine, count] = process.argv[2]?.split(':') ?? [];
  const result = await benchFuzz(engine === 'postgres' ? 'postgres' : 'sqlite', Number(count ?? 100_000));
  console.log(JSON.stringify(result));
}
