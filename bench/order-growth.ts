// POST /orders on PostgreSQL as the tenant grows: one hot SKU, 32 connections, from 0
// to ORDER_GROWTH_TOTAL orders (default 500,000) in steps of ORDER_GROWTH_STEP (100,000), while
// bench/pg-autovacuum.ts vacuums as autovacuum would with the tables' own settings. Reports each
// step's rate and its ratio to the first step's: flat means the claim, the idempotency records and
// the outbox cost the same at half a million orders as at the first.
import autocannon from 'autocannon';
import { dropPgSchema, freshPgSchema } from './checkout.js';
import { BENCH_DECLARATION } from './checkout-world.js';
import { startServer } from './lib.js';
import { startAutovacuum } from './pg-autovacuum.js';

const TOTAL = Number(process.env.ORDER_GROWTH_TOTAL ?? 500_000);
const STEP = Number(process.env.ORDER_GROWTH_STEP ?? 100_000);
const CONNECTIONS = 32;

export interface GrowthStep {
  'orders at end': number;
  'per s': number;
  'vs first step': number;
  'p50 ms': number;
  'p99 ms': number;
  non2xx: number;
  vacuums: string;
}

export async function benchOrderGrowth(): Promise<GrowthStep[] | null> {
  const url = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = await freshPgSchema(url);
  if (!schema) {
    console.log(`PostgreSQL at ${url} unreachable: order growth not measured`);
    return null;
  }
  const server = await startServer('bench/servers/checkout.ts', {
    DATABASE_URL: url,
    DATABASE_SCHEMA: schema,
    SDAPI_MASTER_KEY: '66'.repeat(32),
    BENCH_CHECKOUT_KEYS: String(TOTAL + 2 * CONNECTIONS),
  });
  const autovacuum = await startAutovacuum(url, schema);
  try {
    await autovacuum.passNow();
    const steps: GrowthStep[] = [];
    let placed = 0;
    for (let end = STEP; end <= TOTAL; end += STEP) {
      const before = { ...autovacuum.log.vacuums };
      const result = await placeOrders(server.info, STEP, () => `growth-${++placed}`);
      const perSecond = Math.round(result.requests.total / result.duration);
      steps.push({
        'orders at end': end,
        'per s': perSecond,
        'vs first step': Math.round((perSecond / (steps[0]?.['per s'] ?? perSecond)) * 100) / 100,
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        non2xx: result.non2xx,
        vacuums: vacuumsSince(before, autovacuum.log.vacuums),
      });
    }
    return steps;
  } finally {
    server.stop();
    await autovacuum.stop();
    await dropPgSchema(url, schema);
  }
}

function placeOrders(info: Record<string, string>, amount: number, reference: () => string) {
  return autocannon({
    url: `${info.url}/api/seller/v1/orders`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${info.token}`,
      'x-forwarded-for': '8.8.8.8',
      'content-type': 'application/json',
    },
    requests: [
      {
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          body: JSON.stringify({
            skuCode: info.skuCode,
            quantity: 1,
            orderReference: reference(),
            expectedUnitPriceCents: 1999,
            integrationOrderContext: BENCH_DECLARATION,
          }),
        }),
      },
    ],
    connections: CONNECTIONS,
    amount,
  });
}

function vacuumsSince(before: Record<string, number>, now: Record<string, number>): string {
  return Object.entries(now)
    .map(([table, count]) => [table, count - (before[table] ?? 0)] as const)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${table} ${count}`)
    .join(', ');
}
