#!/usr/bin/env node
// The operator CLI, compiled (npm run build; `npm ci` builds it through `prepare`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('sdapi: dist/ is missing; run `npm run build` in the project first.\n');
  process.exit(2);
}
await import(entry.href);
