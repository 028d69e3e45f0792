import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { fail } from '../http/errors.js';
import { seedDemo } from '../modules/demo/demo.service.js';
import { importKeys } from '../modules/inventory/key-import.service.js';
import { seedSandboxCatalog } from '../modules/sandbox/sandbox.service.js';
import { ByteCounter, ProgressBar } from './progress.js';

export const seedSandbox = (ctx: AppContext) => seedSandboxCatalog(ctx);

export const seedDemoWorld = (ctx: AppContext, allowedIp: string | undefined) =>
  seedDemo(ctx, allowedIp ?? '8.8.8.8');

/** Streams a key file into a pool with a progress bar; prints the import summary. */
export async function importKeyFile(ctx: AppContext, poolId: string, file: string, format?: string) {
  if (format !== undefined && format !== 'lines' && format !== 'csv')
    throw fail('VALIDATION_FAILED', '--format is lines or csv.');
  const total = statSync(file).size;
  const counter = new ByteCounter();
  const bar = new ProgressBar(total);
  const reading = pipeline(createReadStream(file), counter);
  const summary = await importKeys(ctx, poolId, counter, {
    format: format ?? (file.endsWith('.csv') ? 'csv' : 'lines'),
    onProgress: (s) =>
      bar.update(
        counter.bytes,
        `${s.imported.toLocaleString('en-US')} keys stored, ${bar.rate(s.linesRead)}`,
      ),
  });
  await reading;
  bar.finish(`${summary.imported.toLocaleString('en-US')} keys stored`);
  return summary;
}

/** `sdapi admin METHOD PATH [--data JSON]`: any operator endpoint, run in-process. */
export async function adminRequest(ctx: AppContext, method: string, path: string, data: string | undefined) {
  const app = await buildApp(ctx);
  try {
    const response = await app.inject({
      method: method.toUpperCase() as 'GET',
      url: `/admin/v1${path.startsWith('/') ? path : `/${path}`}`,
      headers: {
        authorization: `Bearer ${ctx.config.adminToken}`,
        ...(data ? { 'content-type': 'application/json' } : {}),
      },
      payload: data,
    });
    const body = response.body ? JSON.parse(response.body) : null;
    if (response.statusCode >= 400) {
      throw Object.assign(new Error(`${response.statusCode} ${body?.code}: ${body?.message}`), {
        details: body,
      });
    }
    return body?.data ?? body;
  } finally {
    await app.close();
  }
}
