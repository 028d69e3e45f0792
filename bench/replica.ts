// POST /orders on PostgreSQL while a large activity CSV streams, with the CSV read on a
// streaming replica (DATABASE_REPLICA_URL) and on the primary, each against the quiet order rate
// of the same server measured in the same run. A private primary and standby (initdb,
// pg_basebackup) on this machine; three rounds, min/median/max.
import pg from 'pg';
import { type PrivateCluster, startPrivateCluster, startStandby } from '../test/faults/private-cluster.js';
import { measure, type Server, startServer } from './lib.js';
import { ordersOf } from './order-load.js';

const ROWS = Number(process.env.BENCH_REPLICA_ROWS ?? 1_000_000);
const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 8);
const CONNECTIONS = 16;

export interface ReplicaBench {
  rows: number;
  /** Orders per second: quiet, and while the CSV streams; per configuration, per round. */
  primaryOnly: { quiet: number[]; withCsv: number[] };
  withReplica: { quiet: number[]; withCsv: number[] };
  /** The replica server's heavy reads by target and reason (sdapi_db_replica_reads_total) over its rounds. */
  replicaReads: Record<string, number>;
  csvRowsStreamed: { primaryOnly: number; withReplica: number };
}

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const scalar = async (url: string, text: string) => Number(Object.values((await query(url, text))[0]!)[0]);

/** Orders per second on `server` (bench/order-load.ts), after a second of warm-up. */
async function orderRate(server: Server, label: string): Promise<number> {
  const result = await measure(
    `POST /orders (${label})`,
    ordersOf(server, label, { connections: CONNECTIONS, seconds: SECONDS }),
  );
  if (result.non2xx > 0) throw new Error(`${result.non2xx} orders answered other than 2xx`);
  return result.requestsPerSecond;
}

/** Streams the exporter's activity CSV again and again until `signal` aborts; answers the rows read. */
async function streamCsv(info: Record<string, string>, signal: AbortSignal): Promise<number> {
  let rows = 0;
  const url = `${info.url}/api/seller/v1/activity?format=csv`;
  const headers = { authorization: `Bearer ${info.csvToken}`, 'x-forwarded-for': '8.8.8.8' };
  while (!signal.aborted) {
    try {
      const response = await fetch(url, { headers, signal });
      if (response.status !== 200 || !response.body)
        throw new Error(`GET /activity answered ${response.status}`);
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        for (const byte of chunk) if (byte === 10) rows++;
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    }
  }
  return rows;
}

/** sdapi_db_replica_reads_total of the server, `target:reason` → count. */
async function replicaReads(info: Record<string, string>): Promise<Record<string, number>> {
  const text = await (await fetch(`${info.admin}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^sdapi_db_replica_reads_total\{target="(\w+)",reason="(\w+)"\} (\d+)/gm))
    counts[`${match[1]}:${match[2]}`] = Number(match[3]);
  return counts;
}

async function ordersWhileCsv(server: Server, label: string) {
  const stop = new AbortController();
  const csv = streamCsv(server.info, stop.signal);
  // The first batches are on their way before the orders start.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rate = await orderRate(server, label);
  stop.abort();
  return { rate, rows: await csv };
}

/** Waits until the standby has replayed everything the primary wrote so far (the seeded rows). */
async function caughtUp(primary: PrivateCluster, standbyUrl: string) {
  const target = await scalar(primary.url, `select pg_current_wal_lsn() - '0/0'`);
  for (;;) {
    if ((await scalar(standbyUrl, `select pg_last_wal_replay_lsn() - '0/0'`)) >= target) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function server(primary: PrivateCluster, database: string, replicaUrl?: string): Promise<Server> {
  await query(primary.url, `create database ${database}`);
  const url = (base: string) => base.replace(/\/postgres$/, `/${database}`);
  return startServer('bench/servers/replica.ts', {
    DATABASE_URL: url(primary.url),
    ...(replicaUrl ? { DATABASE_REPLICA_URL: url(replicaUrl) } : {}),
    SDAPI_MASTER_KEY: '66'.repeat(32),
    BENCH_CHECKOUT_KEYS: String(ROUNDS * 2 * SECONDS * 1200),
    BENCH_ACTIVITY_ROWS: String(ROWS),
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
}

export async function benchReplica(): Promise<ReplicaBench | null> {
  let primary: PrivateCluster;
  try {
    primary = await startPrivateCluster();
  } catch (err) {
    console.log(`no private PostgreSQL cluster (${(err as Error).message}): replica not measured`);
    return null;
  }
  const standby = await startStandby(primary);
  const result: ReplicaBench = {
    rows: ROWS,
    primaryOnly: { quiet: [], withCsv: [] },
    withReplica: { quiet: [], withCsv: [] },
    replicaReads: {},
    csvRowsStreamed: { primaryOnly: 0, withReplica: 0 },
  };
  try {
    for (const [name, replicaUrl] of [
      ['primaryOnly', undefined],
      ['withReplica', standby.url],
    ] as const) {
      const running = await server(primary, name.toLowerCase(), replicaUrl);
      try {
        await caughtUp(primary, standby.url);
        for (let round = 0; round < ROUNDS; round++) {
          result[name].quiet.push(await orderRate(running, `${name}-quiet-${round}`));
          const loaded = await ordersWhileCsv(running, `${name}-csv-${round}`);
          result[name].withCsv.push(loaded.rate);
          result.csvRowsStreamed[name] += loaded.rows;
        }
        if (name === 'withReplica') result.replicaReads = await replicaReads(running.info);
      } finally {
        running.stop();
      }
    }
    return result;
  } finally {
    standby.destroy();
    primary.destroy();
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const minMedianMax = (values: number[]) => {
  const s = sorted(values);
  return `${s[0]} / ${s[Math.floor(s.length / 2)]} / ${s.at(-1)}`;
};
const ratios = (loaded: number[], quiet: number[]) =>
  loaded.map((v, i) => Math.round((v / quiet[i]!) * 100) / 100);

export function reportReplica(r: ReplicaBench): void {
  const onReplica = ratios(r.withReplica.withCsv, r.withReplica.quiet);
  const onPrimary = ratios(r.primaryOnly.withCsv, r.primaryOnly.quiet);
  console.log(
    `POST /orders/s while a ${r.rows.toLocaleString('en')}-row activity CSV streams (min / median / max of ${ROUNDS}):`,
  );
  console.table({
    'CSV on the replica': {
      quiet: minMedianMax(r.withReplica.quiet),
      'with CSV': minMedianMax(r.withReplica.withCsv),
      'ratio to quiet': minMedianMax(onReplica),
      aim: '>= 0.9',
    },
    'CSV on the primary (no replica configured)': {
      quiet: minMedianMax(r.primaryOnly.quiet),
      'with CSV': minMedianMax(r.primaryOnly.withCsv),
      'ratio to quiet': minMedianMax(onPrimary),
      aim: '',
    },
  });
  const quietCost = ratios(r.withReplica.quiet, r.primaryOnly.quiet);
  console.log(
    `quiet rate with a replica configured vs without (write marks on the order path): ${minMedianMax(quietCost)}; ` +
      `heavy reads of the replica server (target:reason): ${JSON.stringify(r.replicaReads)}; ` +
      `CSV rows streamed: ${r.csvRowsStreamed.withReplica} (replica), ${r.csvRowsStreamed.primaryOnly} (primary)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchReplica();
  if (result) reportReplica(result);
}
