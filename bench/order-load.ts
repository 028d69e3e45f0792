import { BENCH_DECLARATION } from './checkout-world.js';
import type { Load, Server } from './lib.js';

/**
 * `POST /orders` of one unit of a bench checkout server's SKU (bench/servers/checkout.ts), each
 * request with a reference of its own (`label` and a counter): the load several benches put on
 * the order path.
 */
export function ordersOf(server: Server, label: string, options: Partial<Load> = {}): Load {
  let n = 0;
  return {
    url: `${server.info.url}/api/seller/v1/orders`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.info.token}`,
      'x-forwarded-for': '8.8.8.8',
      'content-type': 'application/json',
    },
    bodyOf: () =>
      JSON.stringify({
        skuCode: server.info.skuCode,
        quantity: 1,
        orderReference: `bench-${label}-${process.pid}-${++n}`,
        expectedUnitPriceCents: 1999,
        integrationOrderContext: BENCH_DECLARATION,
      }),
    connections: 32,
    ...options,
  };
}
