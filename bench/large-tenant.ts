// The large tenant: one production seller grown to LARGE_TENANT_ORDERS orders (default
// 1,000,000 on SQLite, 200,000 on PostgreSQL with DATABASE_URL), each with its sale line, activity
// entry and sold key, every twentieth refunded, written straight through the repositories in
// large transactions, beside 60,000 keys in stock (imported). Reports p50/p95 of every seller list and
// aggregate read, and of the console's list pages and key-code search (signed-in session), at 1,000 orders and at full size (sequential, in this process), then on SQLite
// POST /orders p99 alone and while ten clients (in a process of their own) read statements and stream the activity CSV.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { createContext } from '../src/create-context.js';
import { isPostgres } from '../src/db/dialect.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';
import type { GroupCommitAdapter } from '../src/db/sqlite-group-commit.js';
import { uuidv7 } from '../src/lib/ids.js';
import { insertOrder } from '../src/modules/checkout/orders/orders.repo.js';
import { insertSaleWithActivity } from '../src/modules/finance/finance.repo.js';
import { recordReversal } from '../src/modules/finance/reversals.service.js';
import { insertSoldKeys } from '../src/modules/inventory/claims.repo.js';
import { BENCH_DECLARATION, buildCheckoutWorld, type CheckoutWorld } from './checkout-world.js';
import { type ConsoleSession, consoleSession } from './console-session.js';

type App = Awaited<ReturnType<typeof buildApp>>;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Where the orders fall in time: `spread` over the year before the bench started, refunded an
 * hour later; `hour` all inside the hour before it (a big seller's launch hour), refunded ten
 * orders later, so every window edge near now lands among thousands of lines.
 */
type Placement = 'spread' | 'hour';
const placementOf = (placement: Placement, total: number, now: number) => {
  const span = placement === 'hour' ? HOUR_MS : 365 * DAY_MS;
  const spacing = Math.floor(span / total);
  return {
    at: (i: number) => now - span + i * spacing,
    refundAfter: placement === 'hour' ? 10 * spacing : HOUR_MS,
  };
};
const BATCH = 5_000;
/** Calls of each read before the measured ones: the first compile schemas, statements and JIT paths. */
const WARM_UP = 20;

/** Copies the templates of one real order (placed through the API) n times, placed as asked. */
async function grow(
  ctx: AppContext,
  world: CheckoutWorld,
  from: number,
  to: number,
  placed: ReturnType<typeof placementOf>,
) {
  const order = await ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('seller_company_id', '=', world.sellerId)
    .executeTakeFirstOrThrow();
  const sale = await ctx.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('order_id', '=', order.id)
    .executeTakeFirstOrThrow();
  const activity = await ctx.db
    .selectFrom('activity_entries')
    .selectAll()
    .where('order_id', '=', order.id)
    .executeTakeFirstOrThrow();
  const key = await ctx.db
    .selectFrom('game_keys')
    .selectAll()
    .where('order_id', '=', order.id)
    .executeTakeFirstOrThrow();
  for (let start = from; start < to; start += BATCH) {
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(to, start + BATCH); i++) {
        const at = placed.at(i);
        const id = uuidv7(at);
        const reference = `big-${i}`;
        await insertOrder(trx, {
          ...order,
          id,
          readable_id: `BIG${i.toString(36).toUpperCase().padStart(9, '0')}`,
          reference_owner: world.sellerId,
          order_reference: reference,
          created_at: at,
          updated_at: at,
        });
        const line = { ...sale, id: uuidv7(at), order_id: id, order_reference: reference, created_at: at };
        await insertSaleWithActivity(trx, line, {
          ...activity,
          id: uuidv7(at),
          order_id: id,
          order_reference: reference,
          created_at: at,
        });
        await insertSoldKeys(trx, [
          {
            ...key,
            id: uuidv7(at),
            order_id: id,
            // The real keyed fingerprint of the code, so that the search by key code finds it.
            fingerprint: ctx.secrets!.fingerprint(keyCodeOf(i)),
            sold_at: at,
            created_at: at,
          },
        ]);
        if (i % 20 === 19) await recordReversal(trx, line, 1, 'refund', at + placed.refundAfter);
      }
    });
  }
}

/** The code of the key sold with grown order `i`. */
const keyCodeOf = (i: number) => `BIG-KEY-${i.toString(36).toUpperCase().padStart(9, '0')}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0]} / ${median(sorted)} / ${sorted[sorted.length - 1]}`;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** The seller reads of the console: lists with and without their filters, and the aggregates. */
function reads(world: CheckoutWorld, total: number, now: number): [string, string][] {
  const month = new Date(now).toISOString().slice(0, 7);
  // A window whose edges fall inside the busiest part of the fixture, off any whole second.
  const midHour = `from=${new Date(now - 40 * 60_000 + 123).toISOString()}&to=${new Date(now - 10 * 60_000 + 789).toISOString()}`;
  const probe = `big-${Math.floor(total / 2)}`;
  return [
    ['GET /orders', '/orders?limit=50'],
    ['GET /orders?orderReference=', `/orders?orderReference=${probe}`],
    ['GET /finance/api-sales', '/finance/api-sales?limit=50'],
    ['GET /finance/api-sales?orderReference=', `/finance/api-sales?orderReference=${probe}`],
    ['GET /finance/api-sales?entryType=sale_reversal', '/finance/api-sales?entryType=sale_reversal&limit=50'],
    ['GET /activity', '/activity?limit=50'],
    ['GET /activity?orderReference=', `/activity?orderReference=${probe}`],
    ['GET /activity?kinds=refund', '/activity?kinds=refund&limit=50'],
    ['GET /transactions', '/transactions?limit=50'],
    ['GET /refunds', '/refunds?limit=50'],
    ['GET /events', '/events?limit=50'],
    ['GET /finance/summary', '/finance/summary'],
    ['GET /finance/summary (edges mid-hour)', `/finance/summary?${midHour}`],
    ['GET /finance/statements (month)', `/finance/statements?from=${month}&to=${month}`],
    ['GET /finance/statements (12 months)', '/finance/statements'],
    ['GET /usage', '/usage'],
    ['GET /availability', `/availability?skuCode=${world.skuCode}`],
    // The console's list pages, through /console/api with a signed-in owner's session.
    ['console GET /orders', 'console:/orders?limit=50'],
    ['console GET /finance/api-sales', 'console:/finance/api-sales?limit=50'],
    ['console GET /finance/activity', 'console:/finance/activity?limit=50'],
    ['console GET /finance/statements (month)', `console:/finance/statements?from=${month}&to=${month}`],
    // Support's search by the key code a buyer sent: a different code of the tenant's each call.
    ['console POST /orders/by-key-code', 'key-code:'],
  ];
}

/** The request a read of `reads` makes, call `i` of it. */
function requestOf(path: string, i: number, total: number, world: CheckoutWorld, signedIn: ConsoleSession) {
  const { cookie, csrf } = signedIn;
  if (path === 'key-code:')
    return {
      method: 'POST' as const,
      url: '/console/api/orders/by-key-code',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { code: keyCodeOf((i * 7919) % total) },
    };
  if (path.startsWith('console:'))
    return {
      method: 'GET' as const,
      url: `/console/api${path.slice('console:'.length)}`,
      headers: { cookie },
    };
  const headers = { authorization: `Bearer ${world.token}`, 'x-forwarded-for': '8.8.8.8' };
  return { method: 'GET' as const, url: `/api/seller/v1${path}`, headers };
}

async function measureReads(
  app: App,
  world: CheckoutWorld,
  total: number,
  now: number,
  reps: number,
  signedIn: ConsoleSession,
) {
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [name, path] of reads(world, total, now)) {
    const times: number[] = [];
    for (let i = 0; i < reps + WARM_UP; i++) {
      const request = requestOf(path, i, total, world, signedIn);
      const started = performance.now();
      const res = await app.inject(request);
      if (res.statusCode !== 200)
        throw new Error(`${name} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
      if (i >= WARM_UP) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    out[name] = {
      p50: Number(percentile(times, 0.5).toFixed(2)),
      p95: Number(percentile(times, 0.95).toFixed(2)),
    };
  }
  return out;
}

/** POST /orders one after another for `ms`, over HTTP; p50/p99 in ms. */
async function orderLatency(url: string, world: CheckoutWorld, ms: number, tag: string) {
  const headers = {
    authorization: `Bearer ${world.token}`,
    'x-forwarded-for': '8.8.8.8',
    'content-type': 'application/json',
  };
  const times: number[] = [];
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i++) {
    const body = JSON.stringify({
      skuCode: world.skuCode,
      quantity: 1,
      orderReference: `${tag}-${i}`,
      expectedUnitPriceCents: 1999,
      integrationOrderContext: BENCH_DECLARATION,
    });
    const started = performance.now();
    const res = await fetch(`${url}/api/seller/v1/orders`, { method: 'POST', headers, body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST /orders answered ${res.status}: ${text.slice(0, 300)}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    orders: times.length,
    p50: Number(percentile(times, 0.5).toFixed(2)),
    p99: Number(percentile(times, 0.99).toFixed(2)),
  };
}

/** Ten clients reading statements, the summary and the activity CSV, until stopped. */
function heavyReaders(url: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': '8.8.8.8' };
  const paths = [
    '/finance/statements',
    '/finance/summary',
    '/activity?format=csv',
    '/finance/api-sales?limit=100',
  ];
  let running = true;
  let reads = 0;
  const clients = Array.from({ length: 10 }, async (_, c) => {
    while (running) {
      const path = paths[c % paths.length];
      const res = await fetch(`${url}/api/seller/v1${path}`, { headers });
      const body = await res.arrayBuffer();
      // A refused read would be a light one: the load must be the reads it claims to be.
      if (res.status !== 200)
        throw new Error(`GET ${path} answered ${res.status}: ${Buffer.from(body).toString().slice(0, 300)}`);
      reads++;
    }
  });
  return async () => {
    running = false;
    await Promise.all(clients);
    return reads;
  };
}

/**
 * The ten readers in a process of their own (at a lower priority), so that their own work
 * (requests, responses) does not load the server's event loop; resolves once they are reading. The returned function
 * stops them and answers how many reads they made.
 */
async function heavyReadersElsewhere(url: string, token: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'readers'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, READERS_URL: url, READERS_TOKEN: token },
  });
  await once(child, 'message');
  return async () => {
    const exited = once(child, 'exit');
    child.send('stop');
    const [reads] = (await once(child, 'message')) as [number];
    await exited;
    return reads;
  };
}

/** POST /orders latency while ten clients read; `LARGE_TENANT_MARKS` prints the phase's clock span (for --cpu-prof). */
async function ordersUnderHeavyReads(url: string, world: CheckoutWorld, ms: number, tag: string) {
  const startedAt = process.hrtime.bigint() / 1000n;
  const stop = await heavyReadersElsewhere(url, world.token);
  const orders = await orderLatency(url, world, ms, tag);
  const heavyReads = await stop();
  if (process.env.LARGE_TENANT_MARKS)
    console.error(`mark ${tag} ${startedAt} ${process.hrtime.bigint() / 1000n}`);
  return { ...orders, heavyReads };
}

export async function benchLargeTenant(engine = 'sqlite') {
  const postgres = engine === 'postgres';
  const total = Number(process.env.LARGE_TENANT_ORDERS ?? (postgres ? 200_000 : 1_000_000));
  const placement: Placement = process.env.LARGE_TENANT_PLACEMENT === 'hour' ? 'hour' : 'spread';
  // 200 calls per read: a p95 of 40 was their second-slowest call, so one collection or
  // checkpoint decided it for reads that take well under a millisecond.
  const reps = Number(process.env.LARGE_TENANT_REPS ?? 200);
  const env: Record<string, string> = {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-large-')),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  };
  if (postgres) {
    env.DATABASE_URL = process.env.DATABASE_URL!;
    env.DATABASE_SCHEMA = `bench_large_${process.pid}`;
  }
  const config = loadConfig(env);
  const ctx = await createContext({ ...config, masterKeyHex: '44'.repeat(32) });
  if (postgres) await sql.raw(`create schema ${env.DATABASE_SCHEMA}`).execute(ctx.db);
  await migrateToLatest(ctx.db, schemaOf(config));
  // The stock is imported through the service: orders must decrypt the keys they pull.
  const world = await buildCheckoutWorld(ctx, Number(process.env.LARGE_TENANT_STOCK ?? 60_000));
  const app = await buildApp(ctx);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const now = Date.now();
  await orderLatency(url, world, 50, 'seed');
  const placed = placementOf(placement, total, now);
  const result: {
    engine: string;
    placement: Placement;
    orders: number;
    fixtureSeconds?: number;
    reads?: Record<string, unknown>;
    ordersUnderReads?: Record<string, unknown>;
  } = { engine: postgres ? 'postgres' : 'sqlite', placement, orders: total };
  try {
    const small = Math.min(1_000, total);
    await grow(ctx, world, 0, small, placed);
    if (isPostgres(ctx.db)) await sql`analyze`.execute(ctx.db);
    // Twice: the first pass also pays for what the key import left behind (checkpoints, GC).
    const signedIn = await consoleSession(ctx, app, world.sellerId);
    await measureReads(app, world, small, now, reps, signedIn);
    const atSmall = await measureReads(app, world, small, now, reps, signedIn);
    const started = performance.now();
    await grow(ctx, world, small, total, placed);
    result.fixtureSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
    if (isPostgres(ctx.db)) await sql`vacuum analyze`.execute(ctx.db);
    // LARGE_TENANT_RUNS measurements on the one fixture (it takes minutes to build): each read's
    // p95 and the orders' p99 ratio reported as min / median / max over the runs.
    const runs = Math.max(1, Number(process.env.LARGE_TENANT_RUNS ?? 1));
    const atFull: Awaited<ReturnType<typeof measureReads>>[] = [];
    for (let run = 0; run < runs; run++)
      atFull.push(await measureReads(app, world, total, now, reps, signedIn));
    result.reads = Object.fromEntries(
      Object.keys(atFull[0]!).map((name) => {
        const p95s = atFull.map((r) => r[name]!.p95);
        return [
          name,
          {
            'p50/p95 at 1k': `${atSmall[name]!.p50} / ${atSmall[name]!.p95}`,
            [`p50/p95 at ${total}`]: atFull.map((r) => `${r[name]!.p50} / ${r[name]!.p95}`).join(', '),
            [`p95 at ${total} min/median/max`]: spread(p95s),
            'p95 ratio (median)': Number((median(p95s) / atSmall[name]!.p95).toFixed(2)),
          },
        ];
      }),
    );
    if (!postgres) {
      const seconds = Number(process.env.LARGE_TENANT_LOAD_MS ?? 8_000);
      const phases = [];
      for (let run = 0; run < runs; run++) {
        const quiet = await orderLatency(url, world, seconds, 'quiet');
        // The heavy reads on the reader thread (heavy-read.ts), then on the main connection as
        // before it: the same fixture and the same minutes of the machine's load for both.
        const loaded = await ordersUnderHeavyReads(url, world, seconds, 'loaded');
        const driver = (ctx.db.getExecutor().adapter as GroupCommitAdapter).driver;
        const thread = driver.offThread;
        driver.offThread = null;
        const loadedOnMain = await ordersUnderHeavyReads(url, world, seconds, 'loaded-main');
        driver.offThread = thread;
        phases.push({
          quiet,
          readerThread: { ...loaded, p99Ratio: Number((loaded.p99 / quiet.p99).toFixed(2)) },
          mainConnection: { ...loadedOnMain, p99Ratio: Number((loadedOnMain.p99 / quiet.p99).toFixed(2)) },
        });
      }
      result.ordersUnderReads = {
        runs: phases,
        'readerThread p99Ratio min/median/max': spread(phases.map((p) => p.readerThread.p99Ratio)),
        'mainConnection p99Ratio min/median/max': spread(phases.map((p) => p.mainConnection.p99Ratio)),
      };
    }
  } finally {
    await app.close();
    // LARGE_TENANT_KEEP_SCHEMA=1 leaves the PostgreSQL fixture in place (for EXPLAIN sessions); drop it by hand.
    if (postgres && process.env.LARGE_TENANT_KEEP_SCHEMA === '1')
      console.error(`kept schema ${env.DATABASE_SCHEMA}: drop schema ${env.DATABASE_SCHEMA} cascade`);
    else if (postgres) await sql.raw(`drop schema ${env.DATABASE_SCHEMA} cascade`).execute(ctx.db);
    await ctx.close();
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'readers') {
  // The readers stand for sellers' clients on other machines: at nice 10 they take the CPU the
  // server leaves free rather than an equal share of the server's two cores. (They complete as
  // many reads either way: 533-796 per 8 s.)
  setPriority(10);
  const stop = heavyReaders(process.env.READERS_URL!, process.env.READERS_TOKEN!);
  process.send!('reading');
  process.once('message', async () => {
    process.send!(await stop());
    process.disconnect();
  });
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchLargeTenant(process.argv[2])));
}
