// After tsc: copies the plain JavaScript modules (.mjs: the key-sealing worker and the at-rest
// format it shares) from src/ to dist/ at the same relative paths, so `new URL('./x.mjs',
// import.meta.url)` and `import './x.mjs'` resolve in the compiled build as they do in src/.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const SRC = 'src';
const OUT = 'dist';

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

let copied = 0;
for (const file of filesUnder(SRC)) {
  if (!file.endsWith('.mjs')) continue;
  const target = join(OUT, relative(SRC, file));
  // An unchanged file is left alone: a process may be loading it (tests run beside `npm start`).
  if (existsSync(target) && readFileSync(target).equals(readFileSync(file))) continue;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
  copied++;
}
// The build stamp: tests rebuild when a source file is newer than it (test/global-setup.ts).
writeFileSync(join(OUT, '.build-stamp'), `${new Date().toISOString()}\n`);
process.stdout.write(`build: ${copied} changed .mjs runtime modules copied to ${OUT}/\n`);
