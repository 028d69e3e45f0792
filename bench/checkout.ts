// Checkout: POST /orders (quantity 1, one hot SKU, 32 connections) against the raw driver doing
// the minimal durable work of an order (bench/baselines.ts), and an idempotent replay against
// bare hello, on SQLite and, when reachable, on PostgreSQL.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/create-context.js';
import { migrateToLatest, schemaOf } from '../src/db/migrate.js';
import { randomBase32 } from '../src/lib/ids.js';
import { rawPostgresOrders, rawSqliteOrders } from './baselines.js';
import { BENCH_DECLARATION, buildCheckoutWorld } from './checkout-world.js';
import { rawPostgresFullOrders, rawSqliteFullOrders } from './full-order-baselines.js';
import { type Measurement, measure, type Server, startServer } from './lib.js';
import { rawOverHttpRate } from './raw-over-http.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;

export async function freshPgSchema(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const schema = `bench_${randomBase32(10).toLowerCase()}`;
    await client.query(`create schema ${schema}`);
    return schema;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function dropPgSchema(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

export interface CheckoutResult {
  engine: string;
  /** Orders per second of the raw baseline (bench/baselines.ts), measured in the same run. */
  raw: number;
  /** Orders per second of the raw order with every write of a keyed order (bench/full-order-baselines.ts). */
  rawFull: number;
  /** That full raw order behind bare Fastify under the same load as the service (PostgreSQL). */
  rawFullOverHttp?: number;
  orders: Measurement;
  /** POST /orders with a fresh Idempotency-Key each: what POST /orders/commit, which requires one, compares with. */
  keyed: Measurement;
  replay: Measurement;
}

/** One engine: the service in its own process, the raw baseline in this one on its own database. */
async function benchEngine(
  engine: 'sqlite' | 'postgres',
  serverEnv: Record<string, string>,
  bareEnv: Record<string, string>,
): Promise<CheckoutResult> {
  const server: Server = await startServer('bench/servers/checkout.ts', serverEnv);
  const auth = {
    authorization: `Bearer ${server.info.token}`,
    'x-forwarded-for': '8.8.8.8',
    'content-type': 'application/json',
  };
  const url = `${server.info.url}/api/seller/v1/orders`;
  let n = 0;
  const order = (reference: string) =>
    JSON.stringify({
      skuCode: server.info.skuCode,
      quantity: 1,
      orderReference: reference,
      expectedUnitPriceCents: 1999,
      integrationOrderContext: BENCH_DECLARATION,
    });
  const orders = await measure(`POST /orders, quantity 1 (${engine})`, {
    url,
    method: 'POST',
    headers: auth,
    bodyOf: () => order(`bench-${process.pid}-${++n}`),
    connections: CONNECTIONS,
  });
  const keyed = await measure(`POST /orders with an Idempotency-Key, quantity 1 (${engine})`, {
    url,
    method: 'POST',
    headers: auth,
    headersOf: () => ({ 'idempotency-key': `bench-keyed-${process.pid}-${++n}` }),
    bodyOf: () => order(`bench-keyed-${process.pid}-${n}`),
    connections: CONNECTIONS,
  });
  const replayHeaders = { ...auth, 'idempotency-key': 'bench-replay' };
  await fetch(url, { method: 'POST', headers: replayHeaders, body: order('bench-replay') });
  const replay = await measure(`POST /orders, Idempotency-Key replay (${engine})`, {
    url,
    method: 'POST',
    headers: replayHeaders,
    body: order('bench-replay'),
    connections: CONNECTIONS,
  });
  server.stop();

  const dataDir = mkdtempSync(join(tmpdir(), 'sdapi-bench-raw-'));
  const config = loadConfig({ ...process.env, ...bareEnv, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const ctx = await createContext({ ...config, masterKeyHex: config.masterKeyHex ?? '33'.repeat(32) });
  await migrateToLatest(ctx.db, schemaOf(config));
  const world = await buildCheckoutWorld(ctx, 120_000);
  await ctx.close();
  let raw: number;
  let rawFull: number;
  let rawFullOverHttp: number | undefined;
  if (config.database.engine === 'postgres') {
    const connection = { url: config.database.url, schema: config.database.schema ?? 'public' };
    await rawPostgresOrders(connection, world, 1, CONNECTIONS);
    raw = await rawPostgresOrders(connection, world, SECONDS, CONNECTIONS);
    await rawPostgresFullOrders(connection, world, 1, CONNECTIONS);
    rawFull = await rawPostgresFullOrders(connection, world, SECONDS, CONNECTIONS);
    rawFullOverHttp = await rawOverHttpRate(
      { kind: 'order', target: connection, world, connections: CONNECTIONS },
      () => order(`bench-raw-http-${process.pid}-${++n}`),
    );
  } else {
    rawSqliteOrders(config.database.path, world, 1);
    raw = rawSqliteOrders(config.database.path, world, SECONDS);
    rawSqliteFullOrders(config.database.path, world, 1);
    rawFull = rawSqliteFullOrders(config.database.path, world, SECONDS);
  }
  return { engine, raw, rawFull, rawFullOverHttp, orders, keyed, replay };
}

export async function benchCheckout(): Promise<CheckoutResult[]> {
  const results = [await benchEngine('sqlite', {}, {})];
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schemas = [await freshPgSchema(pgUrl), await freshPgSchema(pgUrl)];
  if (schemas[0] && schemas[1]) {
    const env = (schema: string) => ({
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      SDAPI_MASTER_KEY: '44'.repeat(32),
    });
    try {
      results.push(await benchEngine('postgres', env(schemas[0]), env(schemas[1])));
    } finally {
      for (const schema of schemas) await dropPgSchema(pgUrl, schema!);
    }
  } else {
    console.log(`PostgreSQL at ${pgUrl} unreachable: checkout measured on SQLite only`);
  }
  return results;
}
