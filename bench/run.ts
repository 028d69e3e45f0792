// npm run bench: every scenario against the bare Fastify baseline measured in the same run.
import type { benchActivityCsv } from './activity-csv.js';
import { benchCheckout } from './checkout.js';
import { benchCli } from './cli.js';
import { reportConsoleSize } from './console-size.js';
import type { FuzzBenchResult } from './fuzz.js';
import type { benchKeyImport } from './key-import.js';
import type { benchLargeTenant } from './large-tenant.js';
import { measure, measurePaired, report, runInFreshProcess, startServer, stealMeter } from './lib.js';
import type { benchListen } from './listen.js';
import { benchMix, reportMix } from './mix.js';
import { benchOrderGrowth } from './order-growth.js';
import { benchPartitionSizes, reportPartitionSizes } from './partition-sizes.js';
import { benchPgBouncer, reportPgBouncer } from './pgbouncer.js';
import { benchReplica, reportReplica } from './replica.js';
import { benchRequestLog, reportRequestLog } from './request-log.js';
import { benchReserve, reportReserve } from './reserve.js';
import type { benchSnapshot } from './snapshot.js';
import { benchSoak } from './soak.js';
import { reportSoak } from './soak-report.js';
import type { benchWebhooks } from './webhooks.js';

const steal = stealMeter();
/**
 * `BENCH_ONLY=checkout,reserve` runs those sections alone: requests (reads and checkout), reserve,
 * request-log, memory, fuzz, webhooks, cli, listen, large-tenant, order-growth, console-size, replica,
 * pgbouncer, partition-sizes, mix, soak. `soak` runs only when named (it holds the mixed load for
 * BENCH_SOAK_MINUTES, 30, per engine); a soak that misses its criteria sets a non-zero exit status.
 */
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const wants = (section: string) => only.size === 0 || only.has(section);
if (wants('requests') || wants('checkout')) await benchRequests();
if (wants('reserve')) reportReserve(await benchReserve());
if (wants('request-log')) reportRequestLog(await benchRequestLog());
if (wants('memory')) await benchMemory();
if (wants('fuzz')) await benchFuzz();
if (wants('webhooks')) await benchWebhookDeliveries();
if (wants('cli')) benchCliStart();
if (wants('listen')) await benchListenForwarding();
if (wants('large-tenant')) await benchLargeTenantReads();
if (wants('order-growth')) await benchOrderGrowthOnPostgres();
if (wants('console-size')) reportConsoleSize();
if (wants('replica')) await benchReplicaReads();
if (wants('pgbouncer')) reportPgBouncer(await benchPgBouncer());
if (wants('partition-sizes')) reportPartitionSizes(await benchPartitionSizes());
if (wants('mix')) reportMix(await benchMix());
if (only.has('soak') && !reportSoak(await benchSoak())) process.exitCode = 1;
console.log(`CPU time stolen by the host during the run: ${steal()}`);

/** Reads against bare hello; POST /orders against its raw baselines, replay against bare hello. */
async function benchRequests() {
  const hello = await startServer('bench/servers/hello.ts');
  const app = await startServer('bench/servers/app.ts');
  const bareHello = { url: `${hello.info.url}/hello` };
  const auth = { authorization: `Bearer ${app.info.productionToken}`, 'x-forwarded-for': '8.8.8.8' };
  const api = `${app.info.url}/api/seller/v1`;
  const whoami = await measurePaired(bareHello, 'GET /whoami (auth cache hit)', {
    url: `${api}/whoami`,
    headers: auth,
  });
  const products = await measurePaired(bareHello, 'GET /products?limit=50', {
    url: `${api}/products?limit=50`,
    headers: auth,
  });
  // The ETag of the representation autocannon asks for (no Accept-Encoding: identity).
  const etag =
    (
      await fetch(`${api}/catalog/snapshot`, { headers: { ...auth, 'accept-encoding': 'identity' } })
    ).headers.get('etag') ?? '';
  const revalidate = await measurePaired(
    bareHello,
    'GET /catalog/snapshot, If-None-Match (304; all non2xx)',
    {
      url: `${api}/catalog/snapshot`,
      headers: { ...auth, 'if-none-match': etag },
    },
  );
  app.stop();
  const checkout = await benchCheckout();
  // The replay aims compare against bare hello, measured again right after checkout.
  const baseline = await measure('bare Fastify GET /hello', bareHello);
  hello.stop();

  report('bare Fastify GET /hello', [
    { paired: whoami, aim: 0.5 },
    { paired: products, aim: 0.25 },
    { paired: revalidate, aim: 0.6 },
  ]);

  /** POST /orders against its engine's raw baseline; aims: PostgreSQL 0.6, SQLite 0.3; p99 < 100 ms. */
  const ORDER_AIMS: Record<string, number> = { sqlite: 0.3, postgres: 0.6 };
  const RAW_BASELINES: Record<string, string> = {
    sqlite: 'raw better-sqlite3, 3 prepared statements per order',
    postgres: 'raw pg, 32 clients, one statement per order',
  };
  /** A keyed POST /orders against the raw order with every write it makes; aims: PostgreSQL 1.0, SQLite 0.3. */
  const FULL_ORDER_AIMS: Record<string, number> = { sqlite: 0.3, postgres: 1.0 };
  const FULL_RAW_BASELINES: Record<string, string> = {
    sqlite: 'raw better-sqlite3, the order with all its writes, 9 prepared statements',
    postgres: 'raw pg, 32 clients, the order with all its writes in one statement',
  };
  console.table(
    checkout.flatMap((c) => {
      const ratio = c.orders.requestsPerSecond / c.raw;
      const replay = c.replay.requestsPerSecond / baseline.requestsPerSecond;
      const aim = ORDER_AIMS[c.engine] ?? 0;
      const full = c.keyed.requestsPerSecond / c.rawFull;
      const fullAim = FULL_ORDER_AIMS[c.engine] ?? 0;
      return [
        {
          scenario: `${RAW_BASELINES[c.engine]} (${c.engine})`,
          'per s': c.raw,
          'p99 ms': '',
          ratio: '1.00',
          aim: '',
        },
        {
          scenario: `${FULL_RAW_BASELINES[c.engine]} (${c.engine})`,
          'per s': c.rawFull,
          'p99 ms': '',
          ratio: `${(c.rawFull / c.raw).toFixed(2)} of raw`,
          aim: '',
        },
        ...(c.rawFullOverHttp === undefined
          ? []
          : [
              {
                scenario: `the same behind bare Fastify, 32 connections (${c.engine})`,
                'per s': c.rawFullOverHttp,
                'p99 ms': '',
                ratio: `${(c.rawFullOverHttp / c.rawFull).toFixed(2)} of full raw`,
                aim: 'what HTTP alone leaves of the full raw order: a service whose own code cost nothing',
              },
            ]),
        {
          scenario: c.orders.name,
          'per s': c.orders.requestsPerSecond,
          'p99 ms': c.orders.p99Ms,
          ratio: `${ratio.toFixed(2)} of raw`,
          aim: `>= ${aim.toFixed(2)} ${ratio >= aim ? 'met' : 'MISSED'}; p99 < 100 ms ${c.orders.p99Ms < 100 ? 'met' : 'MISSED'}`,
        },
        {
          scenario: c.keyed.name,
          'per s': c.keyed.requestsPerSecond,
          'p99 ms': c.keyed.p99Ms,
          ratio: `${(c.keyed.requestsPerSecond / c.raw).toFixed(2)} of raw, ${full.toFixed(2)} of full raw`,
          aim: `of full raw >= ${fullAim.toFixed(2)} ${full >= fullAim ? 'met' : 'MISSED'}`,
        },
        {
          scenario: c.replay.name,
          'per s': c.replay.requestsPerSecond,
          'p99 ms': c.replay.p99Ms,
          ratio: `${replay.toFixed(2)} of bare hello`,
          aim: `>= 0.30 ${replay >= 0.3 ? 'met' : 'MISSED'}`,
        },
      ];
    }),
  );
}

/** Streams and imports whose memory must stay flat, each in a fresh process. */
async function benchMemory() {
  const snapshotProducts = Number(process.env.BENCH_SNAPSHOT_PRODUCTS ?? 100_000);
  // Each in a fresh process, so that RSS growth starts from a heap no earlier scenario grew.
  const snapshot = await runInFreshProcess<Awaited<ReturnType<typeof benchSnapshot>>>(
    'bench/snapshot.ts',
    String(snapshotProducts),
  );
  const importKeys = Number(process.env.BENCH_IMPORT_KEYS ?? 1_000_000);
  const imported = await runInFreshProcess<Awaited<ReturnType<typeof benchKeyImport>>>(
    'bench/key-import.ts',
    String(importKeys),
  );
  const activityRows = Number(process.env.BENCH_ACTIVITY_ROWS ?? 1_000_000);
  const activity = await runInFreshProcess<Awaited<ReturnType<typeof benchActivityCsv>>>(
    'bench/activity-csv.ts',
    String(activityRows),
  );
  console.table([
    {
      scenario: `ndjson snapshot, SQLite, ${snapshot.products.toLocaleString('en-US')} products (${snapshot.megabytes} MB)`,
      seconds: snapshot.seconds,
      'RSS growth MB': snapshot.rssGrowthMb,
      aim: `RSS growth < 100 MB ${snapshot.rssGrowthMb < 100 ? 'met' : 'MISSED'}`,
    },
    {
      scenario: `key import, SQLite, ${imported.keys.toLocaleString('en-US')} keys (${imported.keysPerSecond.toLocaleString('en-US')} keys/s)`,
      seconds: imported.seconds,
      'RSS growth MB': imported.rssGrowthMb,
      aim: `>= 50,000 keys/s ${imported.keysPerSecond >= 50_000 ? 'met' : 'MISSED'}; RSS < 100 MB ${imported.rssGrowthMb < 100 ? 'met' : 'MISSED'}`,
    },
    {
      scenario: `GET /activity?format=csv over HTTP, SQLite, ${activity.rows.toLocaleString('en-US')} rows (${activity.megabytes} MB)`,
      seconds: activity.seconds,
      'RSS growth MB': activity.rssGrowthMb,
      aim: `RSS growth < 100 MB ${activity.rssGrowthMb < 100 ? 'met' : 'MISSED'}`,
    },
  ]);
  // The long fuzz run (docs/http-contract.md, "Fuzzing"): both engines at once, each in a fresh process.
}

/** The long fuzz run (docs/http-contract.md, "Fuzzing"): both engines at once. */
async function benchFuzz() {
  const fuzzRequests = Number(process.env.BENCH_FUZZ_REQUESTS ?? 100_000);
  const fuzzed = await Promise.all(
    (['sqlite', 'postgres'] as const).map((engine) =>
      runInFreshProcess<FuzzBenchResult>('bench/fuzz.ts', `${engine}:${fuzzRequests}`).catch(
        (err: Error) => ({ engine, failed: err.message }) as const,
      ),
    ),
  );
  console.table(
    fuzzed.map((f) =>
      'failed' in f
        ? { scenario: `fuzz (${f.engine})`, verdict: `not run: ${f.failed}` }
        : {
            scenario: `fuzz from OpenAPI, ${f.requests.toLocaleString('en-US')} + ${f.rawRequests} raw (${f.engine})`,
            seconds: f.seconds,
            '5xx': f.serverErrors,
            'envelope violations': f.envelopeViolations,
            'RSS MB before/after': `${f.rssMb[0]} / ${f.rssMb.at(-1)}`,
            'heap MB before/after': `${f.heapMb[0]} / ${f.heapMb.at(-1)}`,
            aim: `0 5xx, 0 violations ${f.serverErrors + f.envelopeViolations === 0 ? 'met' : 'MISSED'}`,
            verdict: f.verdict,
          },
    ),
  );
  for (const f of fuzzed) if ('examples' in f && f.examples.length) console.log(f.engine, f.examples);
}

/** Signed webhook deliveries against bare signed POSTs. */
async function benchWebhookDeliveries() {
  const webhooks = await runInFreshProcess<Awaited<ReturnType<typeof benchWebhooks>>>(
    'bench/webhooks.ts',
    '',
  );
  console.table(
    webhooks.map((w) => ({
      scenario: `signed webhook deliveries to a local receiver (${w.engine}, ${w.deliveries.toLocaleString('en-US')})`,
      'per s': w.perSecond,
      ratio: `${(w.perSecond / w.bare).toFixed(2)} of bare signed POSTs (${w.bare}/s)`,
      'order.fulfilled commit-to-receipt p50/p99 ms': `${w.p50} / ${w.p99}`,
      aim: `>= 2,000/s ${w.perSecond >= 2000 ? 'met' : 'MISSED'}; p50 <= 50 ${w.p50 <= 50 ? 'met' : 'MISSED'}; p99 <= 250 ${w.p99 <= 250 ? 'met' : 'MISSED'}`,
    })),
  );
}

/** Wall time of CLI calls against bare node. */
function benchCliStart() {
  const cli = benchCli();
  const cliBaseline = cli[0]!.median;
  console.table(
    cli.map((c, i) => ({
      scenario: c.name,
      'wall ms min/median/max': `${c.min} / ${c.median} / ${c.max}`,
      ratio: i === 0 ? '1.00' : `${(c.median / cliBaseline).toFixed(2)} of baseline`,
      aim: i === 0 ? '' : `< 1000 ms ${c.max < 1000 ? 'met' : 'MISSED'}`,
    })),
  );
}

/** sdapi-seller listen's commit-to-handler latency against the service's own push delivery. */
async function benchListenForwarding() {
  const r = await runInFreshProcess<Awaited<ReturnType<typeof benchListen>>>('bench/listen.ts', '');
  console.table([
    {
      scenario: `webhook push to a registered endpoint (baseline), ${r.orders} order.fulfilled`,
      'p50 ms': r.push.p50,
      'p95 ms': r.push.p95,
      ratio: '1.00',
      aim: '',
    },
    {
      scenario: `sdapi-seller listen, polling every ${r.intervalMs} ms, ${r.forwarded}/${r.orders} forwarded`,
      'p50 ms': r.listen.p50,
      'p95 ms': r.listen.p95,
      ratio: `${(r.listen.p50 / Math.max(1, r.push.p50)).toFixed(1)} x baseline p50`,
      aim: `p50 <= 2000 ms ${r.listen.p50 <= 2000 && r.forwarded === r.orders ? 'met' : 'MISSED'}`,
    },
  ]);
}

/**
 * The large tenant: every seller read at 1,000 orders and at full size, on SQLite and,
 * with DATABASE_URL, PostgreSQL; on SQLite POST /orders alone and under ten heavy readers.
 * LARGE_TENANT_ORDERS sets the size (default 1,000,000 on SQLite, 200,000 on PostgreSQL);
 * LARGE_TENANT_RUNS repeats the full-size measurements on the one fixture (min/median/max).
 * Each engine is measured with the orders spread over a year and with all of them in the last
 * hour; LARGE_TENANT_PLACEMENT=spread or =hour measures one.
 */
async function benchLargeTenantReads() {
  const engines = process.env.DATABASE_URL?.startsWith('postgres') ? ['sqlite', 'postgres'] : ['sqlite'];
  const asked = process.env.LARGE_TENANT_PLACEMENT;
  const placements = asked ? [asked] : ['spread', 'hour'];
  for (const engine of engines) {
    for (const placement of placements) {
      process.env.LARGE_TENANT_PLACEMENT = placement;
      await largeTenantOn(engine);
    }
  }
  if (asked) process.env.LARGE_TENANT_PLACEMENT = asked;
  else delete process.env.LARGE_TENANT_PLACEMENT;
}

async function largeTenantOn(engine: string) {
  type Result = Awaited<ReturnType<typeof benchLargeTenant>>;
  const result = await runInFreshProcess<Result>('bench/large-tenant.ts', engine);
  const placed = result.placement === 'hour' ? 'in the last hour' : 'spread over a year';
  console.log(
    `large tenant on ${result.engine}, orders ${placed}: ${result.orders} orders, fixture ${result.fixtureSeconds} s`,
  );
  console.table(result.reads);
  if (result.ordersUnderReads)
    console.dir({ 'POST /orders under heavy reads': result.ordersUnderReads }, { depth: 4 });
}

/** POST /orders on PostgreSQL from 0 to ORDER_GROWTH_TOTAL orders, per ORDER_GROWTH_STEP (bench/order-growth.ts). */
async function benchOrderGrowthOnPostgres() {
  const steps = await benchOrderGrowth();
  if (!steps) return;
  console.log('POST /orders on PostgreSQL as the tenant grows (autovacuum emulated at its naptime):');
  console.table(steps);
}

/** The order rate while a large CSV streams, from a streaming replica and from the primary. */
async function benchReplicaReads() {
  const result = await benchReplica();
  if (result) reportReplica(result);
}
