// What the tables that retention empties by dropping day partitions hold per order on PostgreSQL:
// keyed POST /orders (each writes a request-log row, an idempotency record and its order's
// events) on a fresh database; each table's growth over the load (heap, indexes, TOAST; summed
// over its day partitions, so the empty days made ahead do not count) divided by the orders, and
// scaled to a million orders.
import pg from 'pg';
import { randomBase32 } from '../src/lib/ids.js';
import { measure, startServer } from './lib.js';
import { ordersOf } from './order-load.js';

const TABLES = ['request_log', 'idempotency_records', 'outbox_events'] as const;

export interface PartitionSizes {
  orders: number;
  bytesPerOrder: Record<(typeof TABLES)[number], number>;
}

export async function benchPartitionSizes(): Promise<PartitionSizes | null> {
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = `bench_${randomBase32(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL at ${pgUrl} unreachable: the partition-size bench is skipped`);
    return null;
  }
  await admin.query(`create database ${database}`);
  const url = Object.assign(new URL(pgUrl), { pathname: `/${database}` }).href;
  const server = await startServer('bench/servers/checkout.ts', {
    DATABASE_URL: url,
    SDAPI_MASTER_KEY: '66'.repeat(32),
    BENCH_CHECKOUT_KEYS: '30000',
  });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const before = await sizesOf(db);
    let keys = 0;
    await measure(
      'keyed POST /orders (partition sizes)',
      ordersOf(server, 'sizes', {
        headersOf: () => ({ 'idempotency-key': `sizes-${process.pid}-${++keys}` }),
        connections: 8,
      }),
    );
    // The request log is written once a second: let the last batch land.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const orders = Number((await db.query('select count(*) as n from orders')).rows[0].n);
    const after = await sizesOf(db);
    const bytesPerOrder = {} as PartitionSizes['bytesPerOrder'];
    for (const table of TABLES) bytesPerOrder[table] = Math.round((after[table] - before[table]) / orders);
    return { orders, bytesPerOrder };
  } finally {
    await db.end();
    server.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

/** Each table's bytes on disk: its partitions' when it has any, else its own. */
async function sizesOf(db: pg.Client): Promise<Record<(typeof TABLES)[number], number>> {
  const sizes = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) {
    const { rows } = await db.query(
      `select coalesce(sum(pg_total_relation_size(relid)) filter (where isleaf and level > 0),
                       pg_total_relation_size($1::regclass)) as bytes
       from pg_partition_tree($1::regclass)`,
      [table],
    );
    sizes[table] = Number(rows[0].bytes);
  }
  return sizes;
}

export function reportPartitionSizes(result: PartitionSizes | null): void {
  if (!result) return;
  console.log(`\nPartitioned tables per order (PostgreSQL, ${result.orders} keyed orders):`);
  for (const [table, bytes] of Object.entries(result.bytesPerOrder)) {
    const perMillion = (bytes * 1_000_000) / 2 ** 30;
    console.log(`  ${table}: ${bytes} bytes per order, ${perMillion.toFixed(2)} GiB per million orders`);
  }
}
