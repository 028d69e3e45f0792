import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface Server {
  info: Record<string, string>;
  stop(): void;
}

/**
 * Starts a bench server in its own process, so load generator and server do not share a core.
 * With BENCH_CPU_PROF=<dir>, each server writes a V8 CPU profile there when it stops.
 */
export async function startServer(
  script: string,
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<Server> {
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...nodeFlags, '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line)));
  });
  return { info, stop: () => child.kill('SIGTERM') };
}

/**
 * Runs a bench script in a process of its own and returns the JSON it prints last: memory
 * growth is measured from a fresh heap, not one that earlier scenarios already grew.
 */
export async function runInFreshProcess<T>(
  script: string,
  arg = '',
  env: Record<string, string> = {},
): Promise<T> {
  // --expose-gc: measureMemory collects before taking its baseline, so the garbage of the
  // scenario's setup (a seeded catalog, a generated file) is not mistaken for headroom.
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, arg], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '') as T;
}

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface Load {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** A fresh body per request (unique order references), instead of `body`. */
  bodyOf?: () => string;
  /** Fresh headers per request (a unique Idempotency-Key), merged over `headers`. */
  headersOf?: () => Record<string, string>;
  seconds?: number;
  connections?: number;
}

async function run(name: string, options: Load, seconds: number): Promise<Measurement> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests:
      options.bodyOf || options.headersOf
        ? [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                body: options.bodyOf ? options.bodyOf() : request.body,
                headers: options.headersOf ? { ...request.headers, ...options.headersOf() } : request.headers,
              }),
            },
          ]
        : undefined,
    connections: options.connections ?? 32,
    duration: seconds,
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** One second of warm-up, then the measured run. */
export async function measure(name: string, options: Load): Promise<Measurement> {
  await run(name, options, 1);
  return run(name, options, options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5));
}

export interface Paired {
  baseline: Measurement;
  scenario: Measurement;
  /** Median over the rounds of scenario / baseline measured back to back. */
  ratio: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The scenario against the baseline in alternating short rounds, each ratio taken between two
 * runs seconds apart. On a shared machine whose speed drifts by a third within a minute, one
 * baseline run followed by the scenarios much later measures the drift as much as the code.
 */
export function measurePaired(baseline: Load, name: string, scenario: Load): Promise<Paired> {
  return inRounds(baseline, scenario, async (seconds) => [
    await run('baseline', baseline, seconds),
    await run(name, scenario, seconds),
  ]);
}

/**
 * Two servers of the same world loaded at the same moments: each round runs both at once, each
 * with its own connections, so a swing of the machine's speed (other work on a shared host)
 * falls on both sides of every ratio, where back-to-back runs would measure it as a difference.
 */
export function measureSimultaneous(baseline: Load, name: string, scenario: Load): Promise<Paired> {
  return inRounds(baseline, scenario, (seconds) =>
    Promise.all([run('baseline', baseline, seconds), run(name, scenario, seconds)]),
  );
}

async function inRounds(
  baseline: Load,
  scenario: Load,
  round: (seconds: number) => Promise<[Measurement, Measurement]>,
): Promise<Paired> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  await run('warm-up', baseline, 1);
  await run('warm-up', scenario, 1);
  const pairs: [Measurement, Measurement][] = [];
  for (let i = 0; i < rounds; i++) pairs.push(await round(seconds));
  const middle = (pick: (pair: [Measurement, Measurement]) => Measurement): Measurement => {
    const runs = pairs.map(pick);
    return {
      name: runs[0]!.name,
      requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
      p50Ms: median(runs.map((r) => r.p50Ms)),
      p99Ms: median(runs.map((r) => r.p99Ms)),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    };
  };
  return {
    baseline: middle((pair) => pair[0]),
    scenario: middle((pair) => pair[1]),
    ratio: median(pairs.map(([b, s]) => s.requestsPerSecond / b.requestsPerSecond)),
  };
}

export function report(baselineName: string, rows: { paired: Paired; aim: number }[]): void {
  console.table(
    rows.map(({ paired, aim }) => ({
      scenario: paired.scenario.name,
      'req/s': paired.scenario.requestsPerSecond,
      [`${baselineName} req/s`]: paired.baseline.requestsPerSecond,
      'p99 ms': paired.scenario.p99Ms,
      non2xx: paired.scenario.non2xx,
      'ratio (median of rounds)': paired.ratio.toFixed(2),
      aim: `>= ${aim.toFixed(2)} ${paired.ratio >= aim ? 'met' : 'MISSED'}`,
    })),
  );
}

/** Runs `work` and reports its duration and the peak growth of resident memory while it ran. */
export async function measureMemory<T>(
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; rssGrowthMb: number }> {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      result,
      seconds: (performance.now() - started) / 1000,
      rssGrowthMb: (peak - baseline) / 1024 / 1024,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Jiffies of the whole machine from /proc/stat (Linux): all of them, and those stolen by the host. */
function cpuJiffies(): { total: number; steal: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { total: fields.reduce((sum, v) => sum + v, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/**
 * Starts counting the CPU time the hypervisor took from this VM; the returned function gives
 * its share since then. A high share means every ratio of that run is noise.
 */
export function stealMeter(): () => string {
  const start = cpuJiffies();
  return () => {
    const end = cpuJiffies();
    if (!start || !end || end.total === start.total) return 'unknown';
    return `${Math.round(((end.steal - start.steal) / (end.total - start.total)) * 100)}%`;
  };
}
