import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of the files under `dir` (ms). */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Tests of the compiled build (the CLI, the server under SIGTERM) run dist/: build it once per
 * test run when a source file is newer than the last build (`npm ci` and `.ci/run` build first,
 * so there this is a check only); the same for the SDK, which the seller CLI's processes load.
 */
export default function buildIfStale(): void {
  const stamp = 'dist/.build-stamp';
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sourcesAt = Math.max(
    newestUnder('src'),
    newestUnder('console/src'),
    statSync('console/index.html').mtimeMs,
    statSync('tsconfig.build.json').mtimeMs,
  );
  if (builtAt < sourcesAt) {
    process.stderr.write('dist/ is older than src/: npm run build\n');
    execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  // The seller CLI's tests run it as a process of its own, which imports the built SDK.
  const sdkBuilt = 'sdk/dist/index.js';
  if (!existsSync(sdkBuilt) || statSync(sdkBuilt).mtimeMs < newestUnder('sdk/src')) {
    process.stderr.write('sdk/dist/ is older than sdk/src/: npm run sdk:build\n');
    execFileSync('npm', ['run', 'sdk:build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}
