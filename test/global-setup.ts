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
 * so there this is a check only).
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
  if (builtAt >= sourcesAt) return;
  process.stderr.write('dist/ is older than src/: npm run build\n');
  execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
