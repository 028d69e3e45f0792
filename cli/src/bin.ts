#!/usr/bin/env node
import { main } from './main.js';

// Ctrl-C (and SIGTERM) abort the running command, which stops cleanly; a second Ctrl-C exits at once.
const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  });
}
process.exitCode = await main(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  env: process.env,
  signal: stop.signal,
});
