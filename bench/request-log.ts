// The request log's cost on the order path: POST /orders on two servers of the same world, one
// with the request log (and each key's last-used time) on, one with SDAPI_REQUEST_LOG=off,
// loaded at the same moments (32 connections each) in rounds, on SQLite and, when reachable,
// on PostgreSQL.

import { dropPgSchema, freshPgSchema } from './checkout.js';
import { measureSimultaneous, type Paired, startServer } from './lib.js';
import { ordersOf } from './order-load.js';

export interface RequestLogResult {
  engine: string;
  paired: Paired;
}

async function benchEngine(engine: string, env: (log: 'on' | 'off') => Record<string, string>) {
  const [on, off] = [
    await startServer('bench/servers/checkout.ts', env('on')),
    await startServer('bench/servers/checkout.ts', env('off')),
  ];
  try {
    const paired = await measureSimultaneous(
      ordersOf(off, 'log-off'),
      `POST /orders with the request log and last-used on (${engine})`,
      ordersOf(on, 'log-on'),
    );
    return { engine, paired };
  } finally {
    on.stop();
    off.stop();
  }
}

export async function benchRequestLog(): Promise<RequestLogResult[]> {
  const results = [await benchEngine('sqlite', (log) => ({ SDAPI_REQUEST_LOG: log }))];
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schemas = [await freshPgSchema(pgUrl), await freshPgSchema(pgUrl)];
  if (schemas[0] && schemas[1]) {
    const [onSchema, offSchema] = schemas as [string, string];
    try {
      results.push(
        await benchEngine('postgres', (log) => ({
          DATABASE_URL: pgUrl,
          DATABASE_SCHEMA: log === 'on' ? onSchema : offSchema,
          SDAPI_MASTER_KEY: '44'.repeat(32),
          SDAPI_REQUEST_LOG: log,
        })),
      );
    } finally {
      for (const schema of schemas) await dropPgSchema(pgUrl, schema!);
    }
  } else {
    console.log(`PostgreSQL at ${pgUrl} unreachable: the request log measured on SQLite only`);
  }
  return results;
}

export function reportRequestLog(results: RequestLogResult[]): void {
  console.table(
    results.map(({ engine, paired }) => ({
      scenario: paired.scenario.name,
      'req/s': paired.scenario.requestsPerSecond,
      'off req/s': paired.baseline.requestsPerSecond,
      'p99 ms on/off': `${paired.scenario.p99Ms} / ${paired.baseline.p99Ms}`,
      non2xx: paired.scenario.non2xx + paired.baseline.non2xx,
      'ratio on/off (median of rounds)': paired.ratio.toFixed(3),
      aim: `>= 0.95 ${paired.ratio >= 0.95 ? 'met' : 'MISSED'} (${engine})`,
    })),
  );
}
