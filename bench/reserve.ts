// Hot drop: POST /orders/reserve on one hot SKU (quantity 1, 32 connections) on SQLite,
// PostgreSQL and PostgreSQL with Redis, each against the raw baseline of its engine measured in
// the same run (bench/reserve-baselines.ts), with the oversold count read back from the store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseConfig, loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';
import { dropPgSchema, freshPgSchema } from './checkout.js';
import { BENCH_DECLARATION, buildCheckoutWorld, type CheckoutWorld } from './checkout-world.js';
import { type Measurement, measure, startServer } from './lib.js';
import { rawOverHttpRate } from './raw-over-http.js';
import {
  preparePgReserve,
  prepareRedisReserve,
  rawReserves,
  rawSqliteReserves,
} from './reserve-baselines.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const KEYS = Number(process.env.BENCH_RESERVE_KEYS ?? 60_000);

export interface ReserveResult {
  label: string;
  /** Reservations per second of the raw baseline, measured in the same run. */
  raw: number;
  rawName: string;
  /** The raw baseline with the contract's other durable writes, for reference (reserve-baselines.ts). */
  rawWithContract: number;
  /** The raw baseline with the contract's writes behind bare Fastify, under the same load (PostgreSQL). */
  rawOverHttp?: number;
  reserve: Measurement;
  /** POST /orders/commit of the reservations just made, while they live (to compare with POST /orders). */
  commit: Measurement;
  /** Units promised beyond min(quantityLimit, keys in stock): must be 0. */
  oversold: number;
  reserved: number;
}

/** What the live reservations promise against what exists, read from the service's database. */
async function oversoldIn(database: DatabaseConfig, allocationId: string) {
  const { db, close } = openDatabase(database, { poolSize: 1 });
  try {
    const live = await db
      .selectFrom('reservations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantity'), eb.lit(0)).as('n'))
      .where('allocation_id', '=', allocationId)
      .where('status', 'in', ['live', 'committing'])
      .executeTakeFirstOrThrow();
    const allocation = await db
      .selectFrom('allocations')
      .select(['quantity_limit', 'quantity_pulled', 'sku_id'])
      .where('id', '=', allocationId)
      .executeTakeFirstOrThrow();
    const stock = await db
      .selectFrom('game_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sku_id', '=', allocation.sku_id)
      .where('state', '=', 'available')
      .executeTakeFirstOrThrow();
    const reserved = Number(live.n);
    const bound = Math.min(allocation.quantity_limit - allocation.quantity_pulled, Number(stock.n));
    return { reserved, oversold: Math.max(0, reserved - bound) };
  } finally {
    await close();
  }
}

async function liveReservations(database: DatabaseConfig, allocationId: string): Promise<string[]> {
  const { db, close } = openDatabase(database, { poolSize: 1 });
  try {
    const rows = await db
      .selectFrom('reservations')
      .select('id')
      .where('allocation_id', '=', allocationId)
      .where('status', '=', 'live')
      .execute();
    return rows.map((r) => r.id);
  } finally {
    await close();
  }
}

async function benchVariant(
  label: string,
  env: Record<string, string>,
  rawEnv: Record<string, string>,
  raw: {
    name: string;
    run: (
      config: DatabaseConfig,
      world: CheckoutWorld,
      seconds: number,
      contractWrites: boolean,
    ) => Promise<number>;
    overHttp?: (config: DatabaseConfig, world: CheckoutWorld, bodyOf: () => string) => Promise<number>;
  },
): Promise<ReserveResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sdapi-bench-reserve-'));
  const serverEnv = { ...env, DATA_DIR: dataDir, BENCH_RESERVE_KEYS: String(KEYS) };
  const server = await startServer('bench/servers/reserve.ts', serverEnv);
  const headers = {
    authorization: `Bearer ${server.info.token}`,
    'x-forwarded-for': '8.8.8.8',
    'content-type': 'application/json',
  };
  let n = 0;
  const reserveBody = () =>
    JSON.stringify({
      skuCode: server.info.skuCode,
      quantity: 1,
      countryCode: 'US',
      orderReference: `bench-reserve-${process.pid}-${n}`,
      expectedUnitPriceCents: 1999,
    });
  const reserve = await measure(`POST /orders/reserve, quantity 1 (${label})`, {
    url: `${server.info.url}/api/seller/v1/orders/reserve`,
    method: 'POST',
    headers,
    headersOf: () => ({ 'idempotency-key': `bench-reserve-${process.pid}-${++n}` }),
    bodyOf: reserveBody,
    connections: CONNECTIONS,
  });
  const config = loadConfig({ ...process.env, ...serverEnv });
  const { oversold, reserved } = await oversoldIn(config.database, server.info.allocationId!);
  const live = await liveReservations(config.database, server.info.allocationId!);
  const commit = await measure(`POST /orders/commit of those reservations (${label})`, {
    url: `${server.info.url}/api/seller/v1/orders/commit`,
    method: 'POST',
    headers,
    headersOf: () => ({ 'idempotency-key': `bench-commit-${process.pid}-${++n}` }),
    bodyOf: () =>
      JSON.stringify({
        // Once every reservation is committed, a made-up id: answered 410 (counted as non-2xx).
        reservationId: live.pop() ?? '00000000-0000-7000-8000-000000000000',
        integrationOrderContext: BENCH_DECLARATION,
      }),
    connections: CONNECTIONS,
  });
  server.stop();

  const rawConfig = loadConfig({
    ...process.env,
    ...rawEnv,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sdapi-bench-reserve-raw-')),
    LOG_LEVEL: 'silent',
  });
  const ctx = await createContext({ ...rawConfig, masterKeyHex: rawConfig.masterKeyHex ?? '33'.repeat(32) });
  await migrateToLatest(ctx.db, schemaOf(rawConfig));
  const world = await buildCheckoutWorld(ctx, 10);
  await ctx.close();
  await raw.run(rawConfig.database, world, 1, false);
  const rawRate = await raw.run(rawConfig.database, world, SECONDS, false);
  await raw.run(rawConfig.database, world, 1, true);
  const rawWithContract = await raw.run(rawConfig.database, world, SECONDS, true);
  const rawOverHttp = await raw.overHttp?.(rawConfig.database, world, reserveBody);
  return {
    label,
    raw: rawRate,
    rawName: raw.name,
    rawWithContract,
    rawOverHttp,
    reserve,
    commit,
    oversold,
    reserved,
  };
}

const pgTarget = (database: DatabaseConfig) => {
  if (database.engine !== 'postgres') throw new Error('PostgreSQL baseline on another engine');
  return { url: database.url, schema: database.schema ?? 'public' };
};

export async function benchReserve(): Promise<ReserveResult[]> {
  const results = [
    await benchVariant(
      'SQLite',
      {},
      {},
      {
        name: 'raw better-sqlite3: counter + reservation row',
        run: async (database, world, seconds, contractWrites) =>
          database.engine === 'sqlite' ? rawSqliteReserves(database.path, world, seconds, contractWrites) : 0,
      },
    ),
  ];
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const variants = [
    {
      label: 'PostgreSQL',
      extra: {} as Record<string, string>,
      raw: {
        name: `raw pg, ${CONNECTIONS} clients: 32 slot rows (SKIP LOCKED) + reservation row`,
        run: async (d: DatabaseConfig, w: CheckoutWorld, s: number, contractWrites: boolean) =>
          rawReserves(await preparePgReserve(pgTarget(d), w, contractWrites), pgTarget(d), s, CONNECTIONS),
        overHttp: (d: DatabaseConfig, world: CheckoutWorld, bodyOf: () => string) =>
          rawOverHttpRate({ kind: 'reserve', target: pgTarget(d), world, connections: CONNECTIONS }, bodyOf),
      },
    },
    {
      label: 'PostgreSQL + Redis',
      extra: { REDIS_URL: redisUrl },
      raw: {
        name: `raw pg + Redis, ${CONNECTIONS} clients: Lua admission + reservation row`,
        run: async (d: DatabaseConfig, w: CheckoutWorld, s: number, contractWrites: boolean) =>
          rawReserves(await prepareRedisReserve(redisUrl, w, contractWrites), pgTarget(d), s, CONNECTIONS),
        overHttp: (d: DatabaseConfig, world: CheckoutWorld, bodyOf: () => string) =>
          rawOverHttpRate(
            { kind: 'reserve-redis', target: pgTarget(d), redisUrl, world, connections: CONNECTIONS },
            bodyOf,
          ),
      },
    },
  ];
  for (const variant of variants) {
    const schemas = [await freshPgSchema(pgUrl), await freshPgSchema(pgUrl)];
    if (!schemas[0] || !schemas[1]) {
      console.log(`PostgreSQL at ${pgUrl} unreachable: reserve not measured on ${variant.label}`);
      continue;
    }
    const env = (schema: string) => ({
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      SDAPI_MASTER_KEY: '44'.repeat(32),
      ...variant.extra,
    });
    try {
      results.push(await benchVariant(variant.label, env(schemas[0]), env(schemas[1]), variant.raw));
    } finally {
      for (const schema of schemas) await dropPgSchema(pgUrl, schema!);
    }
  }
  return results;
}

/**
 * Reserve at least 0.4 of its engine's raw baseline (on PostgreSQL also 0.5 of the raw one with the
 * contract's writes), p99 under 50 ms, nothing oversold.
 */
export function reportReserve(results: ReserveResult[]) {
  console.table(
    results.flatMap((r) => {
      const ratio = r.reserve.requestsPerSecond / r.raw;
      const full = r.reserve.requestsPerSecond / r.rawWithContract;
      return [
        { scenario: `${r.rawName} (${r.label})`, 'per s': r.raw, 'p50 / p99 ms': '', ratio: '1.00', aim: '' },
        {
          scenario: `the same + stored reply + order.reserved row + request log row (${r.label})`,
          'per s': r.rawWithContract,
          'p50 / p99 ms': '',
          ratio: `${(r.rawWithContract / r.raw).toFixed(2)} of raw`,
          aim: "reference: the contract's writes alone, before HTTP, auth, JSON and rules",
        },
        ...(r.rawOverHttp === undefined
          ? []
          : [
              {
                scenario: `the same behind bare Fastify, ${CONNECTIONS} connections (${r.label})`,
                'per s': r.rawOverHttp,
                'p50 / p99 ms': '',
                ratio: `${(r.rawOverHttp / r.rawWithContract).toFixed(2)} of full`,
                aim: 'what HTTP alone leaves of the reference: a service whose own code cost nothing',
              },
            ]),
        {
          scenario: r.reserve.name,
          'per s': r.reserve.requestsPerSecond,
          'p50 / p99 ms': `${r.reserve.p50Ms} / ${r.reserve.p99Ms}`,
          ratio: `${ratio.toFixed(2)} of raw, ${full.toFixed(2)} of full`,
          aim: [
            `>= 0.40 ${ratio >= 0.4 ? 'met' : 'MISSED'}`,
            ...(r.label.startsWith('PostgreSQL')
              ? [`of full >= 0.50 ${full >= 0.5 ? 'met' : 'MISSED'}`]
              : []),
            `p99 < 50 ms ${r.reserve.p99Ms < 50 ? 'met' : 'MISSED'}`,
            `oversold ${r.oversold} of ${r.reserved} reserved ${r.oversold === 0 ? 'met' : 'MISSED'}`,
            `non-2xx ${r.reserve.non2xx}`,
          ].join('; '),
        },
        {
          scenario: r.commit.name,
          'per s': r.commit.requestsPerSecond,
          'p50 / p99 ms': `${r.commit.p50Ms} / ${r.commit.p99Ms}`,
          ratio: '',
          aim: `the rate of POST /orders with an Idempotency-Key (checkout table); non-2xx ${r.commit.non2xx} (410 once all are committed)`,
        },
      ];
    }),
  );
}
