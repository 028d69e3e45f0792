// A raw baseline behind bare Fastify: each POST runs the baseline's one operation (the full raw
// order, or the reservation with the contract's writes) through a pool of raw pg connections and
// answers a constant JSON body the size of the service's reply. No auth, rules or query builder:
// its rate is what a service whose own code cost nothing would reach under the same load
// generator on this machine, so it tells the cost of HTTP apart from the cost of our code.
import Fastify from 'fastify';
import pg from 'pg';
import type { PreparedOperation } from '../baselines.js';
import { pgFullOrder } from '../full-order-baselines.js';
import type { RawOverHttp } from '../raw-over-http.js';
import { preparePgReserve, prepareRedisReserve } from '../reserve-baselines.js';

const spec = JSON.parse(process.env.BENCH_RAW_HTTP ?? '') as RawOverHttp;
const { kind, target, world } = spec;

async function prepare(): Promise<PreparedOperation> {
  if (kind === 'order') return { once: (c, now) => pgFullOrder(c, world, now), close: async () => undefined };
  if (kind === 'reserve') return preparePgReserve(target, world, true);
  return prepareRedisReserve(spec.redisUrl ?? 'redis://127.0.0.1:6379', world, true);
}

/** About the size of the service's 201 replies: an order with one key, a reservation. */
const REPLY = JSON.stringify(
  kind === 'order'
    ? {
        orderId: 'o'.repeat(36),
        orderReference: 'r'.repeat(27),
        items: [{ key: 'k'.repeat(29) }],
        pad: 'p'.repeat(420),
      }
    : {
        reservationId: 'r'.repeat(36),
        orderReference: 'r'.repeat(27),
        expiresAt: 'e'.repeat(24),
        pad: 'p'.repeat(180),
      },
);

const prepared = await prepare();
const pool = new pg.Pool({
  connectionString: target.url,
  max: spec.connections,
  options: `-c search_path=${target.schema}`,
});
const app = Fastify({ logger: false });
app.post('/raw', async (_request, reply) => {
  const c = await pool.connect();
  try {
    if (!(await prepared.once(c, Date.now()))) return reply.code(409).send({ written: false });
  } finally {
    c.release();
  }
  return reply.code(201).header('content-type', 'application/json').send(REPLY);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: address })}\n`);
const stop = async () => {
  await prepared.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
