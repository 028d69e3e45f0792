// POST /orders through PgBouncer (transaction pooling, DATABASE_POOLER=transaction: unnamed
// statements) against the same service connected directly (named statements), each on a fresh
// database of its own, in alternating rounds: a ratio per round, reported as min/median/max.
import pg from 'pg';
import { randomBase32 } from '../src/lib/ids.js';
import { pgBouncerInstalled, startPgBouncer } from '../test/pgbouncer.js';
import { type Measurement, measure, type Server, startServer } from './lib.js';
import { ordersOf } from './order-load.js';

const ROUNDS = 3;

export interface PgBouncerResult {
  rounds: { direct: Measurement; pooled: Measurement; ratio: number }[];
}

async function onServer(url: string, statement: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query(statement);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const at = (url: string, database: string) => Object.assign(new URL(url), { pathname: `/${database}` }).href;

export async function benchPgBouncer(): Promise<PgBouncerResult | null> {
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (!pgBouncerInstalled()) {
    console.log('pgbouncer is not installed: the PgBouncer bench is skipped');
    return null;
  }
  const databases = [`bench_${randomBase32(10).toLowerCase()}`, `bench_${randomBase32(10).toLowerCase()}`];
  if (!(await onServer(pgUrl, `create database ${databases[0]}`))) {
    console.log(`PostgreSQL at ${pgUrl} unreachable: the PgBouncer bench is skipped`);
    return null;
  }
  await onServer(pgUrl, `create database ${databases[1]}`);
  const pooler = await startPgBouncer({ serverUrl: pgUrl, poolSize: 20 });
  const servers: Server[] = [];
  try {
    const common = { SDAPI_MASTER_KEY: '44'.repeat(32), BENCH_CHECKOUT_KEYS: '60000' };
    const direct = await startServer('bench/servers/checkout.ts', {
      ...common,
      DATABASE_URL: at(pgUrl, databases[0]!),
    });
    servers.push(direct);
    const pooled = await startServer('bench/servers/checkout.ts', {
      ...common,
      DATABASE_URL: pooler.urlOf(databases[1]!),
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: at(pgUrl, databases[1]!),
    });
    servers.push(pooled);
    const directLoad = ordersOf(direct, 'direct');
    const pooledLoad = ordersOf(pooled, 'pooled');
    const rounds: PgBouncerResult['rounds'] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const d = await measure('POST /orders, PostgreSQL directly', directLoad);
      const p = await measure('POST /orders, through PgBouncer (transaction pooling)', pooledLoad);
      rounds.push({ direct: d, pooled: p, ratio: p.requestsPerSecond / d.requestsPerSecond });
    }
    return { rounds };
  } finally {
    for (const server of servers) server.stop();
    await pooler.stop();
    for (const database of databases)
      await onServer(pgUrl, `drop database if exists ${database} with (force)`);
  }
}

export function reportPgBouncer(result: PgBouncerResult | null): void {
  if (!result) return;
  console.log('POST /orders through PgBouncer against PostgreSQL directly (32 connections, quantity 1):');
  console.table(
    result.rounds.map((r, i) => ({
      round: i + 1,
      'direct req/s': r.direct.requestsPerSecond,
      'direct p99 ms': r.direct.p99Ms,
      'PgBouncer req/s': r.pooled.requestsPerSecond,
      'PgBouncer p99 ms': r.pooled.p99Ms,
      non2xx: r.direct.non2xx + r.pooled.non2xx,
      ratio: r.ratio.toFixed(2),
    })),
  );
  const ratios = result.rounds.map((r) => r.ratio).sort((a, b) => a - b);
  const [min, median, max] = [ratios[0]!, ratios[Math.floor(ratios.length / 2)]!, ratios.at(-1)!];
  console.log(
    `ratio PgBouncer / direct: min ${min.toFixed(2)}, median ${median.toFixed(2)}, max ${max.toFixed(2)} (aim >= 0.85 ${median >= 0.85 ? 'met' : 'MISSED'})`,
  );
}
