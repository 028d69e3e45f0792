// The mixed load: the seller routes a real day sees at once (catalog snapshot and change feed,
// availability polls, previews, POST /orders, holds released or converted, hot-drop reservations
// committed, the console's list pages and its CSV export, order webhooks to a receiver that
// answers after 200 ms), offered at a fixed rate by an open-model generator (bench/open-load.ts).
// The rate steps up (doubling, then bisecting) until a route's p99 passes 100 ms: the knee. The
// per-route table is reported at 50% and 80% of it; at 80% a few first deliveries are failed to
// time their retries (due 5 s later on the service clock) and the webhook backlog is sampled.
// On SQLite (one process) and PostgreSQL with Redis (BENCH_MIX_PG_PROCESSES, default two
// processes, requests alternating between them).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { dropPgSchema, freshPgSchema } from './checkout.js';
import { BENCH_DECLARATION } from './checkout-world.js';
import { runInFreshProcess, type Server, startServer } from './lib.js';
import { type Call, type MixRoute, type OpenResult, type RouteStats, runOpen } from './open-load.js';
import { ordersOf } from './order-load.js';
import { receiver } from './webhooks.js';

const SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 6);
const SEED = Number(process.env.BENCH_MIX_SEED ?? 20261202);
const START_RATE = Number(process.env.BENCH_MIX_START_RATE ?? 20);
const MAX_RATE = Number(process.env.BENCH_MIX_MAX_RATE ?? 3200);
const MIN_RATE = 2;
const BISECTIONS = Number(process.env.BENCH_MIX_BISECTIONS ?? 2);
/** The engines the mix and the soak run on, in this order: `sqlite`, `postgres` or both (comma-separated). */
const MIX_ENGINES = new Set(
  (process.env.BENCH_MIX_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()),
);
for (const engine of MIX_ENGINES)
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error(`BENCH_MIX_ENGINES: unknown engine ${engine} (sqlite, postgres)`);
const P99_LIMIT_MS = 100;
const RECEIVER_DELAY_MS = 200;
/**
 * First deliveries failed at the 80% step (every other new event, until this many), to time their
 * retries; never ten in a row, which would trip the endpoint's circuit breaker.
 */
const RETRY_SAMPLES = 20;
/** The first retry waits 5 s +-10% (src/modules/webhooks/retry-schedule.ts): the 80% step runs this much longer. */
const RETRY_TAIL_SECONDS = 7;

/** The mix, by weight per 100 arrivals. Every body is one the route accepts. */
export function mixRoutes(server: Server): MixRoute[] {
  const { token, skuCode, cookie, csrf, reportId } = server.info;
  const seller = { authorization: `Bearer ${token}`, 'x-forwarded-for': '8.8.8.8' };
  const api = '/api/seller/v1';
  const get = (name: string, path: string, headers: Record<string, string> = seller): Call => ({
    name,
    method: 'GET',
    path,
    headers,
  });
  const keyed = (n: number, what: string) => ({
    ...seller,
    'idempotency-key': `mix-${what}-${process.pid}-${n}`,
  });
  const line = (n: number, what: string) => ({
    skuCode,
    quantity: 1,
    countryCode: 'US',
    orderReference: `mix-${what}-${process.pid}-${n}`,
    expectedUnitPriceCents: 1999,
  });
  const orders = ordersOf(server, 'mix');
  const signedIn = { cookie: cookie! };
  return [
    { weight: 3, call: () => get('GET /catalog/snapshot', `${api}/catalog/snapshot`) },
    { weight: 6, call: () => get('GET /catalog/changes', `${api}/catalog/changes?limit=50`) },
    { weight: 22, call: () => get('GET /availability', `${api}/availability?skuCode=${skuCode}`) },
    {
      weight: 15,
      call: (n) => ({
        name: 'POST /orders/preview',
        method: 'POST',
        path: `${api}/orders/preview`,
        headers: seller,
        body: { ...line(n, 'preview'), integrationOrderContext: BENCH_DECLARATION },
      }),
    },
    {
      weight: 15,
      call: () => ({
        name: 'POST /orders',
        method: 'POST',
        path: `${api}/orders`,
        headers: orders.headers,
        body: orders.bodyOf!(),
      }),
    },
    {
      weight: 8,
      call: (n) => ({
        name: 'POST /orders/hold',
        method: 'POST',
        path: `${api}/orders/hold`,
        headers: keyed(n, 'hold'),
        body: { ...line(n, 'hold'), integrationOrderContext: BENCH_DECLARATION },
        // Every other hold is released, the rest converted into an order.
        followUp: (json) => {
          const holdId = (json as { data: { holdId: string } }).data.holdId;
          return n % 2
            ? {
                name: 'DELETE /orders/hold',
                method: 'DELETE',
                path: `${api}/orders/hold`,
                headers: keyed(n, 'release'),
                body: { holdId },
              }
            : {
                name: 'POST /orders (hold converted)',
                method: 'POST',
                path: `${api}/orders`,
                headers: seller,
                body: {
                  ...line(n, 'hold'),
                  checkoutHoldId: holdId,
                  integrationOrderContext: BENCH_DECLARATION,
                },
              };
        },
      }),
    },
    {
      weight: 8,
      call: (n) => ({
        name: 'POST /orders/reserve (hot drop)',
        method: 'POST',
        path: `${api}/orders/reserve`,
        headers: keyed(n, 'reserve'),
        body: line(n, 'reserve'),
        followUp: (json) => ({
          name: 'POST /orders/commit',
          method: 'POST',
          path: `${api}/orders/commit`,
          headers: keyed(n, 'commit'),
          body: {
            reservationId: (json as { data: { reservationId: string } }).data.reservationId,
            integrationOrderContext: BENCH_DECLARATION,
          },
        }),
      }),
    },
    { weight: 8, call: () => get('console GET /orders', '/console/api/orders?limit=50', signedIn) },
    {
      weight: 5,
      call: () => get('console GET /finance/api-sales', '/console/api/finance/api-sales?limit=50', signedIn),
    },
    {
      weight: 5,
      call: () => get('console GET /finance/activity', '/console/api/finance/activity?limit=50', signedIn),
    },
    {
      weight: 4,
      call: () =>
        get('console GET /finance/reports/:id/csv', `/console/api/finance/reports/${reportId}/csv`, signedIn),
    },
    {
      weight: 1,
      call: () => ({
        name: 'console POST /finance/reports (CSV export)',
        method: 'POST',
        path: '/console/api/finance/reports',
        headers: { ...signedIn, 'x-csrf-token': csrf! },
        body: {},
      }),
    },
  ];
}

/** The webhook gauges the operator listener reads from the database at each scrape. */
async function backlog(admin: string) {
  const text = await (await fetch(`${admin}/metrics`)).text();
  const gauge = (name: string, label: string) =>
    Number(text.match(new RegExp(`^${name}\\{${label}\\} (\\S+)$`, 'm'))?.[1] ?? Number.NaN);
  return {
    dueDeliveries: gauge('sdapi_webhook_queue_depth', 'state="due"'),
    scheduledRetries: gauge('sdapi_webhook_queue_depth', 'state="scheduled"'),
    publishLagSeconds: gauge('sdapi_outbox_lag_seconds', 'stage="publish"'),
    deliverLagSeconds: gauge('sdapi_outbox_lag_seconds', 'stage="deliver"'),
  };
}

/** Longest the 80% step waits for the search's queued deliveries to go out. */
const DRAIN_LIMIT_MS = 90_000;

async function drainBacklog(admin: string): Promise<{ ms: number; drained: boolean }> {
  const started = Date.now();
  while (Date.now() - started < DRAIN_LIMIT_MS) {
    if ((await backlog(admin)).dueDeliveries === 0) return { ms: Date.now() - started, drained: true };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { ms: Date.now() - started, drained: false };
}

const worst = (r: OpenResult): RouteStats => r.routes.reduce((a, b) => (b['p99 ms'] > a['p99 ms'] ? b : a));
/** A rate holds when every route's p99 is within the limit and the generator kept up. */
const holds = (r: OpenResult) =>
  worst(r)['p99 ms'] <= P99_LIMIT_MS && r.dropped === 0 && r.late <= r.arrivals / 100;

export interface MixResult {
  engine: string;
  processes: number;
  steps: {
    'offered /s': number;
    arrivals: number;
    late: number;
    dropped: number;
    'worst p99': string;
    holds: boolean;
  }[];
  /** The best rate that held; when none did, 0 (and the tables are at shares of the lowest tried). */
  knee: number;
  lowest: number;
  at50: OpenResult;
  at80: OpenResult;
  retry: { failed: number; retried: number; 'due-to-receipt p50 ms': number; 'max ms': number };
  backlogAt80: {
    /** How long the deliveries left by the search took to go out before the step started. */
    drainedInMs: number;
    /** False when some were still due after DRAIN_LIMIT_MS (the step then starts behind). */
    drained: boolean;
    start: Awaited<ReturnType<typeof backlog>>;
    end: Awaited<ReturnType<typeof backlog>>;
  };
  deliveries: number;
}

/**
 * The mix's servers, receiver and routes for one engine, warmed up; `run` offers a rate (with
 * the mix's seed unless given another). Arrivals are numbered on from one run to the next: the
 * routes derive idempotency keys and order references from the number, and a number used again
 * would make a replay of an earlier request instead of new work.
 */
export interface MixRig {
  servers: Server[];
  targets: string[];
  routes: MixRoute[];
  rx: Awaited<ReturnType<typeof receiver>>;
  run(rate: number, seconds?: number, seed?: number): Promise<OpenResult>;
  stop(): void;
}

/**
 * Starts the receiver (answering after 200 ms; `fails` decides a first delivery's failure) and
 * `processes` mix servers on the engine of `env`, then warms them up (compiled schemas and
 * statements, JIT paths) with two seconds at the start rate.
 */
export async function startMix(
  env: Record<string, string>,
  processes: number,
  fails?: () => boolean,
): Promise<MixRig> {
  const rx = await receiver({ delayMs: RECEIVER_DELAY_MS, ...(fails && { fails }) });
  const serverEnv = { ...env, BENCH_MIX_RECEIVER: rx.url };
  const servers: Server[] = [];
  const stop = () => {
    for (const s of servers) s.stop();
    rx.close();
  };
  try {
    // Built in a process of its own, so the servers' memory is that of serving the load.
    const world = await runInFreshProcess<Record<string, string>>(
      'bench/servers/mix-world.ts',
      '',
      serverEnv,
    );
    for (let i = 0; i < processes; i++)
      servers.push(await startServer('bench/servers/mix.ts', serverEnv, ['--expose-gc']));
    const targets = servers.map((s) => s.info.url!);
    const routes = mixRoutes({ ...servers[0]!, info: { ...servers[0]!.info, ...world } });
    let numbered = 0;
    const run = async (rate: number, seconds = SECONDS, seed = SEED) => {
      const base = numbered;
      const from = routes.map((r) => ({
        weight: r.weight,
        call: (n: number, random: () => number) => r.call(base + n, random),
      }));
      const result = await runOpen(targets, from, rate, seconds, seed);
      numbered += result.arrivals;
      return result;
    };
    await run(START_RATE, 2);
    return { servers, targets, routes, rx, run, stop };
  } catch (err) {
    stop();
    throw err;
  }
}

export type KneeStep = MixResult['steps'][number];

/**
 * The knee search: doubling from the start rate while a rate holds (halving down to the minimum
 * while it does not), then bisecting between the best rate that held (`good`, 0 when none did)
 * and the first that did not (`bad`, 0 when the cap held).
 */
export async function searchKnee(
  run: (rate: number) => Promise<OpenResult>,
): Promise<{ steps: KneeStep[]; good: number; bad: number }> {
  const steps: KneeStep[] = [];
  const tried = async (rate: number) => {
    const r = await run(rate);
    const w = worst(r);
    steps.push({
      'offered /s': rate,
      arrivals: r.arrivals,
      late: r.late,
      dropped: r.dropped,
      'worst p99': `${w['p99 ms']} ms (${w.route})`,
      holds: holds(r),
    });
    return holds(r);
  };
  let good = 0;
  let bad = 0;
  if (await tried(START_RATE)) {
    good = START_RATE;
    for (let rate = START_RATE * 2; rate <= MAX_RATE && !bad; rate *= 2) {
      if (await tried(rate)) good = rate;
      else bad = rate;
    }
  } else {
    bad = START_RATE;
    for (let rate = START_RATE / 2; rate >= MIN_RATE && !good; rate /= 2) {
      if (await tried(rate)) good = rate;
      else bad = rate;
    }
  }
  for (let i = 0; bad > 0 && good > 0 && i < BISECTIONS; i++) {
    const middle = Math.round((good + bad) / 2);
    if (middle === good || middle === bad) break;
    if (await tried(middle)) good = middle;
    else bad = middle;
  }
  return { steps, good, bad };
}

async function benchEngine(
  engine: string,
  env: Record<string, string>,
  processes: number,
): Promise<MixResult> {
  let failing = false;
  let fresh = 0;
  const rig = await startMix(
    env,
    processes,
    () => failing && rig.rx.failed.size < RETRY_SAMPLES && ++fresh % 2 === 0,
  );
  try {
    const { steps, good, bad } = await searchKnee((rate) => rig.run(rate));
    // When no rate held, the tables are taken at 50% and 80% of the lowest rate tried.
    const knee = good || bad;
    const at50 = await rig.run(Math.max(1, Math.round(knee * 0.5)));

    const admin = rig.servers[0]!.info.admin!;
    // The search's steps above the knee leave deliveries queued; the 80% step measures what
    // that load does, so it starts once they are sent (or after DRAIN_LIMIT_MS, reported).
    const drain = await drainBacklog(admin);
    const start = await backlog(admin);
    failing = true;
    setTimeout(() => (failing = false), SECONDS * 1000);
    const at80 = await rig.run(Math.max(1, Math.round(knee * 0.8)), SECONDS + RETRY_TAIL_SECONDS);
    const end = await backlog(admin);
    const retry = await retryDelays(env, rig.rx.failed, rig.rx.retried);
    return {
      engine,
      processes,
      steps,
      knee: good,
      lowest: bad,
      at50,
      at80,
      retry,
      backlogAt80: { drainedInMs: drain.ms, drained: drain.drained, start, end },
      deliveries: rig.rx.count(),
    };
  } finally {
    rig.stop();
  }
}

/** Receipt of each failed delivery's retry against its due time, as the service recorded it. */
async function retryDelays(env: Record<string, string>, failed: Set<string>, retried: Map<string, number>) {
  const { db, close } = openDatabase(loadConfig({ ...process.env, ...env }).database, { poolSize: 1 });
  try {
    const rows =
      failed.size === 0
        ? []
        : await db
            .selectFrom('webhook_attempts')
            .select(['event_id', 'next_retry_at'])
            .where('event_id', 'in', [...failed])
            .where('next_retry_at', 'is not', null)
            .execute();
    const delays = rows
      .filter((r) => retried.has(r.event_id))
      .map((r) => retried.get(r.event_id)! - Number(r.next_retry_at))
      .sort((a, b) => a - b);
    return {
      failed: failed.size,
      retried: delays.length,
      'due-to-receipt p50 ms': delays[Math.floor(delays.length / 2)] ?? Number.NaN,
      'max ms': delays.at(-1) ?? Number.NaN,
    };
  } finally {
    await close();
  }
}

/**
 * Runs `bench` on SQLite (one process, a fresh data directory), then on PostgreSQL with Redis
 * (BENCH_MIX_PG_PROCESSES processes, a fresh schema dropped afterwards) when PostgreSQL answers.
 */
export async function forEachMixEngine<T>(
  bench: (engine: string, env: Record<string, string>, processes: number) => Promise<T>,
  label = 'the mix',
): Promise<T[]> {
  const results: T[] = [];
  if (MIX_ENGINES.has('sqlite'))
    results.push(await bench('SQLite', { DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-mix-')) }, 1));
  if (!MIX_ENGINES.has('postgres')) return results;
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = await freshPgSchema(pgUrl);
  if (!schema) {
    console.log(`PostgreSQL at ${pgUrl} unreachable: ${label} not measured on PostgreSQL`);
    return results;
  }
  try {
    const env = {
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      SDAPI_MASTER_KEY: '44'.repeat(32),
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    };
    const processes = Number(process.env.BENCH_MIX_PG_PROCESSES ?? 2);
    results.push(await bench('PostgreSQL + Redis', env, processes));
  } finally {
    await dropPgSchema(pgUrl, schema);
  }
  return results;
}

export function benchMix(): Promise<MixResult[]> {
  return forEachMixEngine(benchEngine);
}

export function reportMix(results: MixResult[]) {
  for (const r of results) {
    const at = (x: OpenResult, route: string) => x.routes.find((s) => s.route === route);
    const cell = (s: RouteStats | undefined) =>
      s
        ? `${s.requests} | ${s['p50 ms']} / ${s['p99 ms']} | ${s['error %']}%${s['non-2xx'] ? ` (${s['non-2xx']})` : ''}`
        : '';
    console.log(
      `mixed load on ${r.engine}, ${r.processes} process(es): ${
        r.knee ? `knee ${r.knee}` : `no rate held down to ${r.lowest}`
      } requests/s (every route's p99 <= ${P99_LIMIT_MS} ms, generator on time)`,
    );
    console.table(r.steps);
    const names = [...new Set([...r.at50.routes, ...r.at80.routes].map((s) => s.route))].sort();
    const head = (x: OpenResult, share: string) =>
      `${share} (${x.offered}/s, late ${x.late}, dropped ${x.dropped}): n | p50 / p99 ms | errors`;
    for (const s of [...r.at50.routes, ...r.at80.routes])
      if (s.firstError) console.log(`${s.route}, first unexpected answer: ${s.firstError}`);
    console.table(
      names.map((route) => ({
        route,
        [head(r.at50, '50%')]: cell(at(r.at50, route)),
        [head(r.at80, '80%')]: cell(at(r.at80, route)),
      })),
    );
    console.log({
      'webhook retries at 80% (first retry due 5 s after a failed first delivery)': {
        ...r.retry,
        aim: `within 2,000 ms ${r.retry.retried === r.retry.failed && r.retry['max ms'] <= 2000 ? 'met' : 'MISSED'}`,
      },
      'webhook backlog at 80%, start -> end': r.backlogAt80,
      'deliveries received (200 ms receiver)': r.deliveries,
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  reportMix(await benchMix());
  process.exit(0);
}
