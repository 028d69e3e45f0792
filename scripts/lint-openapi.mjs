// `npm run openapi:lint`: exports the served documents (scripts/export-openapi.mjs, after the
// build) and lints them with Redocly's `recommended` ruleset (redocly.yaml). Redocly fails only
// on errors; this fails on any warning too, printing each problem.
import { execFileSync, spawnSync } from 'node:child_process';

const files = ['dist/openapi/seller.json', 'dist/openapi/admin.json'];
execFileSync('node', ['scripts/export-openapi.mjs', 'dist/openapi'], { stdio: 'inherit' });
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
let failed = false;
for (const file of files) {
  const run = spawnSync('npx', ['redocly', 'lint', '--format=json', file], { env, encoding: 'utf8' });
  const start = run.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly lint ${file} printed no report: ${run.stderr}`);
  const report = JSON.parse(run.stdout.slice(start));
  const { errors, warnings } = report.totals;
  for (const problem of report.problems) {
    const where = problem.location?.map((l) => l.pointer).join(', ');
    process.stderr.write(`${file}: ${problem.severity} ${problem.ruleId}: ${problem.message} (${where})\n`);
  }
  process.stdout.write(`openapi lint: ${file}: ${errors} errors, ${warnings} warnings\n`);
  failed ||= errors > 0 || warnings > 0;
}
if (failed) process.exit(1);
