// Merges the exchanges recorded by a test run (SDAPI_RECORD_EXAMPLES=<dir>, test/openapi-observer.ts)
// into src/http/openapi/examples/{seller,admin}.json: per operation, one real request and response
// of the sandbox, arrays cut to 3 items. Usage: npm run openapi:examples (docs/openapi.md).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: record-openapi-examples.mjs <dir>');
const MAX_ITEMS = 3;
const RICH_ENOUGH = 3000;

const cut = (value) =>
  Array.isArray(value)
    ? value.slice(0, MAX_ITEMS).map(cut)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]))
      : value;

/** A request naming a SKU must name a sandbox magic SKU, so the sample works when pasted. */
const pasteable = (c) => {
  const sku = c.request && typeof c.request === 'object' ? c.request.skuCode : undefined;
  return sku === undefined || String(sku).startsWith('SANDBOX-');
};

/**
 * The fullest example that stays readable, among those that work when pasted into the sandbox
 * (all, when none does): the longest under RICH_ENOUGH, else the shortest.
 */
function pick(all) {
  const candidates = all.some(pasteable) ? all.filter(pasteable) : all;
  const sized = candidates
    .map((c) => ({ c, size: JSON.stringify(c).length }))
    .sort((a, b) => a.size - b.size);
  const readable = sized.filter((s) => s.size <= RICH_ENOUGH);
  return (readable.at(-1) ?? sized[0]).c;
}

for (const kind of ['seller', 'admin']) {
  const candidates = new Map();
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${kind}-`))) {
    for (const [id, example] of Object.entries(JSON.parse(readFileSync(join(dir, file), 'utf8')))) {
      candidates.set(id, [...(candidates.get(id) ?? []), cut(example)]);
    }
  }
  const target = `src/http/openapi/examples/${kind}.json`;
  const merged = JSON.parse(readFileSync(target, 'utf8'));
  for (const [id, list] of candidates) merged[id] = pick(list);
  const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
  process.stdout.write(
    `${target}: ${candidates.size} operations recorded, ${Object.keys(sorted).length} in all\n`,
  );
}
