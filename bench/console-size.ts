// The console's initial JavaScript: the module scripts and preloaded chunks its built index.html
// loads before the first page renders, gzipped, against the 250 KB budget.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = 'console/dist';
const BASE = '/console/';
const BUDGET_KB = 250;
/** Kilobytes of 1,000 bytes, as Vite's build report counts them. */
const kb = (bytes: number) => bytes / 1000;

/** The entry chunks index.html names: `<script type="module" src>` and `<link rel="modulepreload" href>`. */
export function initialChunks(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  return [...new Set([...scripts, ...preloads])];
}

export function reportConsoleSize(): void {
  const index = join(DIST, 'index.html');
  if (!existsSync(index)) {
    console.log(`console initial JavaScript: not measured, ${index} is missing (npm run build)`);
    return;
  }
  const chunks = initialChunks(readFileSync(index, 'utf8'));
  const sizes = chunks.map((src) => {
    const file = join(DIST, src.startsWith(BASE) ? src.slice(BASE.length) : src);
    const bytes = readFileSync(file);
    return {
      chunk: src,
      'raw KB': kb(bytes.length),
      'gzip KB': kb(gzipSync(bytes).length),
    };
  });
  const gzipKb = sizes.reduce((sum, s) => sum + s['gzip KB'], 0);
  const rawKb = sizes.reduce((sum, s) => sum + s['raw KB'], 0);
  console.table([
    {
      scenario: `console initial JavaScript (${chunks.length} chunk${chunks.length === 1 ? '' : 's'} index.html loads)`,
      'raw KB': rawKb.toFixed(1),
      'gzip KB': gzipKb.toFixed(1),
      aim: `<= ${BUDGET_KB} KB gzipped ${gzipKb <= BUDGET_KB ? 'met' : 'MISSED'}`,
    },
  ]);
}
