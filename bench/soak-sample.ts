// What the soak bench (bench/soak.ts) reads at each sample: each server process's own gauges from
// the operator listener's /metrics (Node's process metrics, which the service already exports),
// the database from outside (its connections and the size of the tables that grow with use) and
// the machine's own stall counters and dirty pages.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../src/config.js';
import type { Server } from './lib.js';

/** One server process at one sample. */
export interface ProcessSample {
  rssMb: number;
  /** After a full collection (sampleProcess asks for one). */
  heapUsedMb: number;
  /** V8's heap as committed (used or not): what of RSS the collector decides. */
  heapTotalMb: number;
  /** Memory V8 tracks outside its heap: Buffers and other C++ objects bound to JavaScript ones. */
  externalMb: number;
  /**
   * p99 of the event loop's delay since the previous scrape: the service's monitor
   * (perf_hooks.monitorEventLoopDelay) is reset at every scrape, and only the soak scrapes.
   */
  loopP99Ms: number;
  /** process.getActiveResourcesInfo().length, the scrape's own socket included. */
  handles: number;
  /** Open connections of the PostgreSQL pool (NaN on SQLite, which has no pool). */
  poolConnections: number;
}

/** The database at one sample: connections, and sizes in MB by table (or by file on SQLite). */
export interface DatabaseSample {
  /** PostgreSQL: the service's sessions / all sessions on the bench database. SQLite: connections of the server processes. */
  connections: string;
  sizesMb: Record<string, number>;
}

const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

/** How long the sampler leaves a server to run the full collection it asked for before reading it. */
const COLLECTION_WAIT_MS = 500;

/**
 * Reads one server process after a full collection (SIGUSR2 to a bench mix server runs one), so
 * heap used is the live heap rather than whatever garbage the collector had not yet reached: a
 * leak is what survives a collection. The load is paused while the soak samples.
 */
export async function sampleProcess(server: Server): Promise<ProcessSample> {
  process.kill(Number(server.info.pid), 'SIGUSR2');
  await new Promise((r) => setTimeout(r, COLLECTION_WAIT_MS));
  const text = await (await fetch(`${server.info.admin}/metrics`)).text();
  const gauge = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN);
  return {
    rssMb: mb(gauge('sdapi_process_resident_memory_bytes')),
    heapUsedMb: mb(gauge('sdapi_nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(gauge('sdapi_nodejs_heap_size_total_bytes')),
    externalMb: mb(gauge('sdapi_nodejs_external_memory_bytes')),
    loopP99Ms: Number((gauge('sdapi_nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(1)),
    handles: gauge('sdapi_nodejs_active_resources_total'),
    poolConnections: gauge('sdapi_db_pool_connections'),
  };
}

/**
 * The machine at one sample (Linux; NaN elsewhere): the kernel's pressure stall counters for CPU
 * and I/O (microseconds in which some task waited, cumulative: the report reads their rise over an
 * interval) and the page cache's dirty and under-writeback memory, where a stall of the whole
 * machine that no one process explains would show.
 */
export interface MachineSample {
  cpuStallUs: number;
  ioStallUs: number;
  dirtyMb: number;
}

function stallTotal(resource: string): number {
  try {
    const some = readFileSync(`/proc/pressure/${resource}`, 'utf8').match(/^some .*total=(\d+)$/m);
    return some ? Number(some[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function sampleMachine(): MachineSample {
  let dirtyKb = Number.NaN;
  try {
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const kb = (name: string) => Number(meminfo.match(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm'))?.[1]);
    dirtyKb = kb('Dirty') + kb('Writeback');
  } catch {
    // not Linux
  }
  return { cpuStallUs: stallTotal('cpu'), ioStallUs: stallTotal('io'), dirtyMb: mb(dirtyKb * 1024) };
}

/** The tables that grow with every order, event, request and export. */
export const GROWING_TABLES = [
  'orders',
  'game_keys',
  'activity_entries',
  'outbox_events',
  'webhook_deliveries',
  'request_log',
  'idempotency_records',
  'finance_reports',
];

/** The application_name the soak gives its servers' PostgreSQL sessions, to tell them from others'. */
export const SOAK_PG_APPLICATION = 'sdapi-bench-soak';

export interface DatabaseSampler {
  sample(): Promise<DatabaseSample>;
  close(): Promise<void>;
}

/**
 * PostgreSQL: sessions in pg_stat_activity on the bench database (the soak's own, by
 * application_name, and all of them: other work may share the database), and each growing table's
 * pg_total_relation_size, its partitions' added (a partitioned table has no storage of its own).
 */
async function postgresSampler(url: string, schema: string): Promise<DatabaseSampler> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async sample() {
      const sessions = await client.query<{ ours: string; total: string }>(
        `select count(*) filter (where application_name = $1) as ours, count(*) as total
           from pg_stat_activity where datname = current_database()`,
        [SOAK_PG_APPLICATION],
      );
      const sizes = await client.query<{ name: string; bytes: string }>(
        `select t.name, pg_total_relation_size(t.rel) + coalesce(
                  (select sum(pg_total_relation_size(relid)) from pg_partition_tree(t.rel) where relid <> t.rel),
                  0) as bytes
           from (select name, to_regclass($1 || '.' || name) as rel from unnest($2::text[]) as name) as t`,
        [schema, GROWING_TABLES],
      );
      const row = sessions.rows[0]!;
      return {
        connections: `${row.ours} / ${row.total}`,
        sizesMb: Object.fromEntries(sizes.rows.map((r) => [r.name, mb(Number(r.bytes))])),
      };
    },
    close: () => client.end(),
  };
}

/** File descriptors of process `pid` open on `path` (Linux /proc): one per SQLite connection. */
function openOn(pid: string, path: string): number {
  const dir = `/proc/${pid}/fd`;
  let count = 0;
  for (const fd of readdirSync(dir)) {
    try {
      if (readlinkSync(`${dir}/${fd}`) === path) count += 1;
    } catch {
      // closed between the listing and the read
    }
  }
  return count;
}

/**
 * SQLite: the database file and its WAL, each growing table's pages (indexes and overflow pages of
 * large values included) from the dbstat table of a read-only connection, and the connections the
 * server processes hold on the file (the sampler's reader is in the bench's process, not counted).
 */
function sqliteSampler(path: string, servers: Server[]): DatabaseSampler {
  const size = (file: string) => {
    try {
      return mb(statSync(file).size);
    } catch {
      return 0;
    }
  };
  const reader = new Database(path, { readonly: true, fileMustExist: true });
  const tablePages = reader.prepare(
    `select coalesce(sum(s.pgsize), 0) as bytes
       from sqlite_schema as m join dbstat as s on s.name = m.name and s.aggregate = 1
      where m.tbl_name = ?`,
  );
  return {
    async sample() {
      let connections = 'n/a';
      try {
        connections = String(servers.reduce((sum, s) => sum + openOn(s.info.pid!, path), 0));
      } catch {
        // no /proc (not Linux) or no pid from the server
      }
      const tables = GROWING_TABLES.map((t) => [
        t,
        mb(Number((tablePages.get(t) as { bytes: number }).bytes)),
      ]);
      return {
        connections,
        sizesMb: { 'database file': size(path), WAL: size(`${path}-wal`), ...Object.fromEntries(tables) },
      };
    },
    close: async () => {
      reader.close();
    },
  };
}

export async function databaseSampler(database: DatabaseConfig, servers: Server[]): Promise<DatabaseSampler> {
  return database.engine === 'sqlite'
    ? sqliteSampler(resolve(database.path), servers)
    : postgresSampler(database.url, database.schema ?? 'public');
}
