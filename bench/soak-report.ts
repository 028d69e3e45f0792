// The soak's tables and verdict (bench/soak.ts). Memory and latency are compared between a
// reference sample taken once the service has warmed up (minute 5; in runs shorter than ten
// minutes the sample at a sixth of the run) and the last sample: a leak or a slowdown that grows
// with time shows as a rise between them, where the first minutes only show the warm-up.
import { clock, SAMPLE_SECONDS, SOAK_MINUTES, type SoakResult, type SoakSample } from './soak.js';

/** Growth allowed from the reference sample to the last: RSS and heap used of each process. */
const MEMORY_GROWTH_LIMIT = 0.1;
/** Growth allowed of the p99 over all routes, last interval against the reference interval. */
const P99_DRIFT_LIMIT = 0.2;
const REFERENCE_SECONDS = 300;
const SHORT_RUN_MINUTES = 10;

/** The sample the end is compared with, and how the output names it. */
function reference(samples: SoakSample[]): { sample: SoakSample; named: string } {
  const short = SOAK_MINUTES < SHORT_RUN_MINUTES;
  const at = short ? (SOAK_MINUTES * 60) / 6 : REFERENCE_SECONDS;
  const sample = samples.find((s) => s.load && s.seconds >= at) ?? samples.at(-1)!;
  return {
    sample,
    named: short
      ? `the sample at 1/6 of the run (${clock(sample.seconds)}), not minute 5: the run is shorter than ${SHORT_RUN_MINUTES} minutes`
      : `minute 5 (the sample at ${clock(sample.seconds)})`,
  };
}

const growth = (from: number, to: number) => (to - from) / from;
const percent = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** The share of an interval in which some task waited for a CPU or for I/O, from the kernel's counters. */
function stallShares(from: SoakSample | undefined, to: SoakSample): string {
  if (!from) return '';
  const share = (a: number, b: number) =>
    `${((100 * (b - a)) / ((to.seconds - from.seconds) * 1e6)).toFixed(1)}%`;
  return `${share(from.machine.cpuStallUs, to.machine.cpuStallUs)} / ${share(from.machine.ioStallUs, to.machine.ioStallUs)}`;
}

function sampleTable(r: SoakResult) {
  const pooled = r.samples.some((s) => s.processes.some((p) => !Number.isNaN(p.poolConnections)));
  return r.samples.map((s, i) => ({
    t: clock(s.seconds),
    requests: s.load?.all.requests ?? '',
    'p99 ms': s.load?.all['p99 ms'] ?? '',
    'error %': s.load?.all['error %'] ?? '',
    'late/dropped': s.load ? `${s.load.late}/${s.load.dropped}` : '',
    ...Object.fromEntries(
      s.processes.flatMap((p, i) => [
        [`p${i + 1} RSS/heap MB`, `${p.rssMb} / ${p.heapUsedMb}`],
        [`p${i + 1} heap total/external MB`, `${p.heapTotalMb} / ${p.externalMb}`],
        [`p${i + 1} loop p99 ms`, p.loopP99Ms],
        [`p${i + 1} handles`, p.handles],
        ...(pooled ? [[`p${i + 1} pool`, p.poolConnections]] : []),
      ]),
    ),
    'db conns': s.database.connections,
    'cpu/io stall': stallShares(r.samples[i - 1], s),
    'dirty MB': s.machine.dirtyMb,
    'db sample ms': s.databaseSampleMs,
  }));
}

function routeTable(r: SoakResult) {
  const loaded = r.samples.filter((s) => s.load);
  const routes = [...new Set(loaded.flatMap((s) => s.load!.routes.map((x) => x.route)))].sort();
  return routes.map((route) => ({
    route,
    ...Object.fromEntries(
      loaded.map((s) => [clock(s.seconds), s.load!.routes.find((x) => x.route === route)?.['p99 ms'] ?? '']),
    ),
  }));
}

/** Prints each engine's tables and verdict; false when any engine missed a criterion. */
export function reportSoak(results: SoakResult[]): boolean {
  let passed = true;
  for (const r of results) {
    const { sample: ref, named } = reference(r.samples);
    const first = r.samples.find((s) => s.load) ?? r.samples[0]!;
    const last = r.samples.at(-1)!;
    console.log(
      `soak on ${r.engine}, ${r.processes} process(es): ${r.rate} requests/s (${r.rateFrom}) for ${clock(last.seconds)}, sampled every ${SAMPLE_SECONDS} s`,
    );
    if (r.kneeSteps.length) console.table(r.kneeSteps);
    console.log(
      "per sample (load over the interval it closes; RSS, heap, handles, dirty pages at its end; loop p99 and the machine's CPU and I/O stall share over the interval):",
    );
    console.table(sampleTable(r));
    console.log('p99 ms per route, per interval:');
    console.table(routeTable(r));
    console.log(`database sizes, MB (${r.engine === 'SQLite' ? 'files' : 'tables, partitions included'}):`);
    console.table(r.samples.map((s) => ({ t: clock(s.seconds), ...s.database.sizesMb })));
    if (r.autovacuum) console.log('vacuums and analyzes run as autovacuum would, per table:', r.autovacuum);
    for (const s of r.samples)
      for (const x of s.load?.routes ?? [])
        if (x.firstError)
          console.log(`${clock(s.seconds)}, ${x.route}, first unexpected answer: ${x.firstError}`);

    const checks: { check: string; reference: string; end: string; change: string; verdict: string }[] = [];
    const check = (name: string, from: number, to: number, limit: number, unit: string) => {
      const change = growth(from, to);
      const met = !(change > limit) && Number.isFinite(from) && Number.isFinite(to);
      passed &&= met;
      checks.push({
        check: `${name} at most ${percent(limit)}`,
        reference: `${from} ${unit}`,
        end: `${to} ${unit}`,
        change: percent(change),
        verdict: met ? 'met' : 'MISSED',
      });
    };
    ref.processes.forEach((p, i) => {
      check(`p${i + 1} RSS`, p.rssMb, last.processes[i]!.rssMb, MEMORY_GROWTH_LIMIT, 'MB');
      check(`p${i + 1} heap used`, p.heapUsedMb, last.processes[i]!.heapUsedMb, MEMORY_GROWTH_LIMIT, 'MB');
    });
    check(
      'p99, all routes, last interval',
      ref.load!.all['p99 ms'],
      last.load!.all['p99 ms'],
      P99_DRIFT_LIMIT,
      'ms',
    );
    console.log(`verdict on ${r.engine}, the last sample (${clock(last.seconds)}) against ${named}:`);
    console.table(checks);
    if (ref === last)
      console.log('the reference is the last sample: the run is too short to compare anything');
    // Not criteria, but what a leak of handles or connections would show.
    console.log({
      [`handles per process, ${clock(first.seconds)} -> ${clock(last.seconds)}`]: first.processes
        .map((p, i) => `${p.handles} -> ${last.processes[i]!.handles}`)
        .join(', '),
      [`database connections, ${clock(first.seconds)} -> ${clock(last.seconds)}`]: `${first.database.connections} -> ${last.database.connections}`,
    });
  }
  console.log(`soak: ${passed ? 'passed' : 'FAILED'}`);
  return passed;
}
