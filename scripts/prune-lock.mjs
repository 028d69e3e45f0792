// Keeps `npm ci` working against a registry mirror that serves only this platform's builds of
// packages with per-platform optional dependencies (Biome, Rollup): npm writes every optional
// dependency name into the lock but cannot resolve the other platforms' builds, and `npm ci`
// then refuses the lock as out of sync. This drops, from each package's optionalDependencies
// in package-lock.json, the names the lock has no entry for. Run after every `npm install`
// that changes the lock: `npm run lock:prune`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
let pruned = 0;
for (const entry of Object.values(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!lock.packages[`node_modules/${name}`]) {
      delete entry.optionalDependencies[name];
      pruned += 1;
    }
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock:prune: removed ${pruned} unresolvable optional dependency names`);
