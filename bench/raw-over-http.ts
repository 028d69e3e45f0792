// The HTTP ceiling of a raw baseline: its one operation behind bare Fastify
// (bench/servers/raw-over-http.ts), loaded exactly as the service is.
import type { PgTarget } from './baselines.js';
import type { CheckoutWorld } from './checkout-world.js';
import { measure, startServer } from './lib.js';

export interface RawOverHttp {
  kind: 'order' | 'reserve' | 'reserve-redis';
  target: PgTarget;
  redisUrl?: string;
  world: CheckoutWorld;
  /** Both the pool of raw connections and the load generator's connections. */
  connections: number;
}

/** Requests per second of the baseline behind bare Fastify, given the service's request bodies. */
export async function rawOverHttpRate(spec: RawOverHttp, bodyOf: () => string): Promise<number> {
  const server = await startServer('bench/servers/raw-over-http.ts', {
    BENCH_RAW_HTTP: JSON.stringify(spec),
  });
  try {
    const result = await measure(`${spec.kind}: raw baseline behind bare Fastify`, {
      url: `${server.info.url}/raw`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer raw',
        'x-forwarded-for': '8.8.8.8',
      },
      bodyOf,
      connections: spec.connections,
    });
    if (result.non2xx > 0) throw new Error(`${spec.kind} behind Fastify: ${result.non2xx} non-2xx answers`);
    return result.requestsPerSecond;
  } finally {
    server.stop();
  }
}
