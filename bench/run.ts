// npm run bench: every scenario against the bare Fastify baseline measured in the same run.
import { benchKeyImport } from './key-import.js';
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

const importKeys = Number(process.env.BENCH_IMPORT_KEYS ?? 1_000_000);
const imported = await benchKeyImport(importKeys);
console.table([
  {
    scenario: `key import, SQLite, ${importKeys.toLocaleString('en-US')} keys`,
    'keys/s': imported.keysPerSecond,
    seconds: imported.seconds,
    'RSS growth MB': imported.rssGrowthMb,
    aim: `>= 50,000 keys/s ${imported.keysPerSecond >= 50_000 ? 'met' : 'MISSED'}; RSS < 100 MB ${imported.rssGrowthMb < 100 ? 'met' : 'MISSED'}`,
  },
]);
