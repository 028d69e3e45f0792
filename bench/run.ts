// npm run bench: every scenario against the bare Fastify baseline measured in the same run.
import { measure, report, startServer } from './lib.js';

const hello = await startServer('bench/servers/hello.ts');
const baseline = await measure('bare Fastify GET /hello', { url: `${hello.info.url}/hello` });
hello.stop();

const app = await startServer('bench/servers/app.ts');
const auth = { authorization: `Bearer ${app.info.productionToken}`, 'x-forwarded-for': '8.8.8.8' };
const whoami = await measure('GET /whoami (auth cache hit)', {
  url: `${app.info.url}/api/seller/v1/whoami`,
  headers: auth,
});
app.stop();

report(baseline, [{ m: whoami, aim: 0.5 }]);
