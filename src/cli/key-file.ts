import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../context.js';
import { fail } from '../http/errors.js';
import { importKeys } from '../modules/inventory/index.js';
import { ByteCounter, ProgressBar } from './progress.js';

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
  for (const { line, reason } of summary.rejectedLines)
    process.stderr.write(`refused line ${line}: ${reason}\n`);
  return summary;
}
