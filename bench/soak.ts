// The soak: the mixed load of bench/mix.ts (same routes, open model, same engines and processes)
// held at half of a rate for BENCH_SOAK_MINUTES per engine, sampled every BENCH_SOAK_SAMPLE_SECONDS:
// each server process's memory, event-loop delay and handles, the database's connections and
// growing tables, and the load's p99 and errors over that interval. On PostgreSQL it vacuums as
// autovacuum would (bench/pg-autovacuum.ts), which this machine's server has turned off. The rate
// is BENCH_SOAK_RATE, or else half the knee the mix bench's own search finds first. What leaks or
// slows down over time shows as a drift between an early sample and the last (bench/soak-report.ts
// judges it).
import { loadConfig } from '../src/config.js';
import { forEachMixEngine, type KneeStep, searchKnee, startMix } from './mix.js';
import type { OpenResult } from './open-load.js';
import { type AutovacuumLog, startAutovacuum } from './pg-autovacuum.js';
import {
  type DatabaseSample,
  databaseSampler,
  type MachineSample,
  type ProcessSample,
  SOAK_PG_APPLICATION,
  sampleMachine,
  sampleProcess,
} from './soak-sample.js';

export const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
export const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 60);
const RATE = process.env.BENCH_SOAK_RATE ? Number(process.env.BENCH_SOAK_RATE) : undefined;
const SEED = Number(process.env.BENCH_MIX_SEED ?? 20261202);
/** Keys each arrival takes for good, about: orders, converted holds and committed reservations. */
const KEYS_PER_ARRIVAL = 0.27;

export interface SoakSample {
  /** Seconds of soak at the end of the interval this sample closes. */
  seconds: number;
  /** The load of the interval; null for the sample taken before the soak starts. */
  load: OpenResult | null;
  processes: ProcessSample[];
  database: DatabaseSample;
  /** How long the database's sample took (the load waits for it: samples fall between intervals). */
  databaseSampleMs: number;
  machine: MachineSample;
}

export interface SoakResult {
  engine: string;
  processes: number;
  rate: number;
  /** Where the rate came from: BENCH_SOAK_RATE or the knee search. */
  rateFrom: string;
  kneeSteps: KneeStep[];
  samples: SoakSample[];
  /** PostgreSQL: the vacuums and analyzes bench/pg-autovacuum.ts ran per table, as autovacuum would. */
  autovacuum: AutovacuumLog | null;
}

async function soakEngine(
  engine: string,
  env: Record<string, string>,
  processes: number,
): Promise<SoakResult> {
  const serverEnv = { ...env, PGAPPNAME: SOAK_PG_APPLICATION };
  const rig = await startMix(serverEnv, processes);
  const database = loadConfig({ ...process.env, ...serverEnv }).database;
  const db = await databaseSampler(database, rig.servers);
  // This machine runs PostgreSQL with autovacuum off; a real one vacuums as the tables churn.
  const autovacuum =
    database.engine === 'postgres' ? await startAutovacuum(database.url, database.schema ?? 'public') : null;
  try {
    let rate = RATE ?? 0;
    let rateFrom = 'BENCH_SOAK_RATE';
    let kneeSteps: KneeStep[] = [];
    if (RATE === undefined) {
      const knee = await searchKnee((r) => rig.run(r));
      kneeSteps = knee.steps;
      rate = Math.max(1, Math.round((knee.good || knee.bad) * 0.5));
      rateFrom = knee.good
        ? `50% of the knee, ${knee.good}/s`
        : `50% of the lowest rate tried, ${knee.bad}/s (no rate held)`;
    }
    const count = Math.max(1, Math.ceil((SOAK_MINUTES * 60) / SAMPLE_SECONDS));
    const stock = Number(process.env.BENCH_MIX_KEYS ?? 100_000);
    if (rate * count * SAMPLE_SECONDS * KEYS_PER_ARRIVAL > stock)
      console.log(
        `soak on ${engine}: ${rate}/s for ${count * SAMPLE_SECONDS} s takes about ${Math.round(rate * count * SAMPLE_SECONDS * KEYS_PER_ARRIVAL)} keys, more than the ${stock} in stock (BENCH_MIX_KEYS): orders will fail once it runs out`,
      );
    const sample = async (seconds: number, load: OpenResult | null): Promise<SoakSample> => {
      const machine = sampleMachine();
      const processes = await Promise.all(rig.servers.map(sampleProcess));
      const started = performance.now();
      const database = await db.sample();
      const databaseSampleMs = Math.round(performance.now() - started);
      return { seconds, load, processes, database, databaseSampleMs, machine };
    };
    // Taken before the load, it also resets the event-loop monitors, so each interval's p99 is its own.
    const samples = [await sample(0, null)];
    for (let i = 1; i <= count; i++) {
      const load = await rig.run(rate, SAMPLE_SECONDS, SEED + i);
      const taken = await sample(i * SAMPLE_SECONDS, load);
      samples.push(taken);
      console.log(
        `soak on ${engine} at ${clock(taken.seconds)}: ${load.all.requests} requests, p99 ${load.all['p99 ms']} ms, errors ${load.all['error %']}%, RSS MB ${taken.processes.map((p) => p.rssMb).join(' / ')}`,
      );
    }
    return { engine, processes, rate, rateFrom, kneeSteps, samples, autovacuum: autovacuum?.log ?? null };
  } finally {
    await autovacuum?.stop();
    await db.close();
    rig.stop();
  }
}

/** Seconds as m:ss. */
export const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

export function benchSoak(): Promise<SoakResult[]> {
  return forEachMixEngine(soakEngine, 'the soak');
}
