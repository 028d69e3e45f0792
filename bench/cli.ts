// The operator CLI's wall time per call (fresh process each time), beside a baseline: a bare node
// process opening the same SQLite file with the raw driver and reading the same page of companies.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);

export interface CliTiming {
  name: string;
  min: number;
  median: number;
  max: number;
}

function wallMs(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

function timing(name: string, args: string[], env: NodeJS.ProcessEnv): CliTiming {
  wallMs(args, env); // warm the file cache
  const runs = Array.from({ length: RUNS }, () => wallMs(args, env)).sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms);
  return {
    name,
    min: round(runs[0]!),
    median: round(runs[Math.floor(runs.length / 2)]!),
    max: round(runs.at(-1)!),
  };
}

export function benchCli(): CliTiming[] {
  // The CLI runs compiled: build (incremental, quick when nothing changed).
  execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
  const dataDir = mkdtempSync(join(tmpdir(), 'sdapi-bench-cli-'));
  const database = join(dataDir, 'cli.sqlite');
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: `sqlite:${database}` };
  for (let i = 0; i < 60; i++) {
    execFileSync(
      process.execPath,
      ['bin/sdapi.js', 'company', 'create', '--name', `Bench ${i}`, '--country', 'DE'],
      {
        env,
        stdio: 'ignore',
      },
    );
  }
  const baseline = [
    '-e',
    `const db = new (require('better-sqlite3'))(${JSON.stringify(database)});
     const rows = db.prepare('select * from companies order by created_at desc, id desc limit 51').all();
     process.stdout.write(JSON.stringify(rows));`,
  ];
  return [
    timing('baseline: node + better-sqlite3, one page of companies', baseline, env),
    timing('sdapi --help', ['bin/sdapi.js', '--help'], env),
    timing(
      'sdapi companies list (60 companies, first page of 50)',
      ['bin/sdapi.js', 'companies', 'list'],
      env,
    ),
  ];
}
