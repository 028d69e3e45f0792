// An open-model load generator: requests arrive at a fixed offered rate (Poisson, from a seeded
// PRNG, the same sequence every run) and each is sent at its arrival without waiting for earlier
// answers, so a slow server shows as latency, not as a lower request rate (what a closed model
// such as autocannon's would measure). Latency counts from the scheduled arrival, so the
// generator's own delay is charged to the request; arrivals sent late are counted apart.
import { Agent, request } from 'node:http';
import { seededRng } from '../test/fuzz/generate.js';

/** One HTTP request of the mix, recorded under `name`; `followUp` makes the call of its answer. */
export interface Call {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  /** JSON: an object is serialized, a string sent as it is. */
  body?: unknown;
  /** Statuses outside 2xx that this call may answer by design (reported, not counted as errors). */
  expected?: number[];
  followUp?: (json: unknown) => Call | null;
}

/** A kind of arrival: its share of the offered rate and the call of arrival number `n`. */
export interface MixRoute {
  weight: number;
  call: (n: number, random: () => number) => Call;
}

export interface RouteStats {
  route: string;
  requests: number;
  'p50 ms': number;
  'p99 ms': number;
  /** Answers outside 2xx and not expected, and failed connections, as a share of requests. */
  'error %': number;
  /** Every answer outside 2xx by status, expected ones included (e.g. "409 x3"). */
  'non-2xx': string;
  /** The start of the first unexpected error answer, to tell an invalid request from a slow one. */
  firstError?: string;
}

export interface OpenResult {
  offered: number;
  seconds: number;
  arrivals: number;
  /** Arrivals sent more than LATE_MS after their scheduled time: the generator's own saturation. */
  late: number;
  /** Arrivals not sent because MAX_IN_FLIGHT requests were already waiting. */
  dropped: number;
  routes: RouteStats[];
  /** Every route's answers together (follow-ups included), under the route name "all routes". */
  all: RouteStats;
}

const LATE_MS = 10;
const MAX_IN_FLIGHT = 4096;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

class Recorder {
  private readonly byName = new Map<
    string,
    { latencies: number[]; errors: number; statuses: Map<number, number>; firstError?: string }
  >();

  record(call: Call, status: number, ms: number, text: string) {
    let entry = this.byName.get(call.name);
    if (!entry) {
      entry = { latencies: [], errors: 0, statuses: new Map() };
      this.byName.set(call.name, entry);
    }
    entry.latencies.push(ms);
    const ok = status >= 200 && status < 300;
    if (!ok) entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    if (!ok && !call.expected?.includes(status)) {
      entry.errors += 1;
      entry.firstError ??= `${status} ${text.slice(0, 300)}`;
    }
  }

  stats(): RouteStats[] {
    return [...this.byName.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, entry]) => summary(route, entry));
  }

  all(): RouteStats {
    const entries = [...this.byName.values()];
    const statuses = new Map<number, number>();
    for (const e of entries) for (const [s, n] of e.statuses) statuses.set(s, (statuses.get(s) ?? 0) + n);
    return summary('all routes', {
      latencies: entries.flatMap((e) => e.latencies),
      errors: entries.reduce((sum, e) => sum + e.errors, 0),
      statuses,
      firstError: entries.find((e) => e.firstError)?.firstError,
    });
  }
}

function summary(
  route: string,
  entry: { latencies: number[]; errors: number; statuses: Map<number, number>; firstError?: string },
): RouteStats {
  const { latencies, errors, statuses, firstError } = entry;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    route,
    requests: sorted.length,
    'p50 ms': Number(percentile(sorted, 0.5).toFixed(1)),
    'p99 ms': Number(percentile(sorted, 0.99).toFixed(1)),
    'error %': Number(((errors / Math.max(1, sorted.length)) * 100).toFixed(2)),
    'non-2xx': [...statuses.entries()].map(([s, n]) => `${s === 0 ? 'conn' : s} x${n}`).join(', '),
    ...(firstError ? { firstError } : {}),
  };
}

/** Sends `call` to `base` and resolves with its status (0 when the connection failed) and JSON. */
function send(
  agent: Agent,
  base: string,
  call: Call,
): Promise<{ status: number; json: unknown; text: string }> {
  const body =
    call.body === undefined || typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
  return new Promise((resolve) => {
    const req = request(`${base}${call.path}`, {
      method: call.method,
      agent,
      headers: {
        ...call.headers,
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
      },
    });
    req.on('error', (err) => resolve({ status: 0, json: null, text: err.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        // Only what is used is decoded: a follow-up's input, an error's first bytes.
        const text = !ok || call.followUp ? Buffer.concat(chunks).toString('utf8') : '';
        const json = ok && call.followUp ? JSON.parse(text) : null;
        resolve({ status, json, text });
      });
      res.on('error', (err) => resolve({ status: 0, json: null, text: err.message }));
    });
    req.end(body);
  });
}

/**
 * Offers `rate` arrivals per second for `seconds`, each a route drawn by weight, to `targets` in
 * turn (round-robin over the server processes). Resolves once every answer, follow-ups
 * included, is in.
 */
export async function runOpen(
  targets: string[],
  routes: MixRoute[],
  rate: number,
  seconds: number,
  seed: number,
): Promise<OpenResult> {
  const random = seededRng(seed);
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const recorder = new Recorder();
  const totalWeight = routes.reduce((sum, r) => sum + r.weight, 0);
  const pick = () => {
    let x = random() * totalWeight;
    for (const route of routes) {
      x -= route.weight;
      if (x < 0) return route;
    }
    return routes.at(-1)!;
  };
  const pending = new Set<Promise<void>>();
  let arrivals = 0;
  let late = 0;
  let dropped = 0;
  const chain = async (target: string, call: Call, scheduled: number) => {
    const { status, json, text } = await send(agent, target, call);
    recorder.record(call, status, performance.now() - scheduled, text);
    const next = status >= 200 && status < 300 ? call.followUp?.(json) : null;
    if (next) await chain(target, next, performance.now());
  };
  const start = performance.now();
  const end = start + seconds * 1000;
  let due = start - Math.log(1 - random()) * (1000 / rate);
  while (due < end) {
    const now = performance.now();
    while (due <= now && due < end) {
      arrivals += 1;
      const route = pick();
      const call = route.call(arrivals, random);
      if (pending.size >= MAX_IN_FLIGHT) dropped += 1;
      else {
        if (now - due > LATE_MS) late += 1;
        const target = targets[arrivals % targets.length]!;
        const p: Promise<void> = chain(target, call, due).finally(() => pending.delete(p));
        pending.add(p);
      }
      due += -Math.log(1 - random()) * (1000 / rate);
    }
    const wait = Math.min(due, end) - performance.now();
    await new Promise((r) => (wait > 1 ? setTimeout(r, wait - 1) : setImmediate(r)));
  }
  while (pending.size > 0) await Promise.all([...pending]);
  agent.destroy();
  return { offered: rate, seconds, arrivals, late, dropped, routes: recorder.stats(), all: recorder.all() };
}
