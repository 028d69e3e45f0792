import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface Server {
  info: Record<string, string>;
  stop(): void;
}

/** Starts a bench server in its own process, so load generator and server do not share a core. */
export async function startServer(script: string, env: Record<string, string> = {}): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
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
export async function runInFreshProcess<T>(script: string, arg: string): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, arg], {
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
  p99Ms: number;
  non2xx: number;
}

export async function measure(
  name: string,
  options: {
    url: string;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
    /** A fresh body per request (unique order references), instead of `body`. */
    bodyOf?: () => string;
    seconds?: number;
    connections?: number;
  },
): Promise<Measurement> {
  const run = (duration: number) =>
    autocannon({
      url: options.url,
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      requests: options.bodyOf
        ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: options.bodyOf!() }) }]
        : undefined,
      connections: options.connections ?? 32,
      duration,
    });
  await run(1);
  const result = await run(options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5));
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

export function report(baseline: Measurement, rows: { m: Measurement; aim?: number }[]): void {
  const table = [baseline, ...rows.map((r) => r.m)].map((m, i) => {
    const aim = i === 0 ? undefined : rows[i - 1]?.aim;
    const ratio = m.requestsPerSecond / baseline.requestsPerSecond;
    return {
      scenario: m.name,
      'req/s': m.requestsPerSecond,
      'p99 ms': m.p99Ms,
      non2xx: m.non2xx,
      'ratio to bare': i === 0 ? '1.00' : ratio.toFixed(2),
      aim: aim === undefined ? '' : `>= ${aim.toFixed(2)} ${ratio >= aim ? 'met' : 'MISSED'}`,
    };
  });
  console.table(table);
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
