import { benchCheckout } from './checkout.ts';
import { measure, startServer } from './lib.ts';

const hello = await startServer('bench/servers/hello.ts');
const r = await benchCheckout();
const h = await measure('hello', { url: `${hello.info.url}/hello` });
hello.stop();
for (const c of r)
  console.log(
    c.engine,
    'raw',
    c.raw,
    'orders',
    c.orders.requestsPerSecond,
    'p99',
    c.orders.p99Ms,
    'non2xx',
    c.orders.non2xx,
    'ratio',
    (c.orders.requestsPerSecond / c.raw).toFixed(2),
    'replay',
    c.replay.requestsPerSecond,
    'of hello',
    (c.replay.requestsPerSecond / h.requestsPerSecond).toFixed(2),
    'hello',
    h.requestsPerSecond,
  );
