import type { Redis } from 'ioredis';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import type { ReplicaConfig } from '../config.js';
import type { Metrics } from '../observability/metrics.js';
import type { Database } from './database.js';
import { type Db, type Executor, loadPg } from './database.js';
import { IDLE_CONNECTION_MS } from './idle-connections.js';
import { attachPgReader, openPgReader, type PgReader } from './pg-reader.js';
import { FallbackDriver } from './replica-driver.js';
import {
  currentWalPosition,
  redisWriteMarks,
  replayedWalPosition,
  tableWriteMarks,
  type WriteMarks,
} from './replica-marks.repo.js';

/** Why a heavy read went where it went (the `reason` label of sdapi_db_replica_reads_total). */
export type ReadRoute = 'caught_up' | 'recent_write' | 'lagging' | 'down' | 'replica_failed';

export interface ReplicaStatus {
  state: 'streaming' | 'lagging' | 'down';
  /** Replay lag in ms (how long the oldest WAL position not yet replayed has been waiting); null when down. */
  lagMs: number | null;
  maxLagMs: number;
}

/** A replica that has not answered within this long counts as down (a lost host, not a refused port). */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/** Checks of the replay position: often enough to see a lag well inside the bound. */
const pollIntervalOf = (maxLagMs: number) => Math.min(1_000, Math.max(50, Math.floor(maxLagMs / 10)));

/**
 * Shares one query among concurrent callers that each need a value read after they asked: a
 * caller joins the query not yet sent, never one already under way (it may predate its commit).
 */
function readAfterAsking(read: () => Promise<number>): () => Promise<number> {
  let running: Promise<number> | null = null;
  let queued: Promise<number> | null = null;
  const start = (): Promise<number> => {
    running = read().finally(() => {
      running = null;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    queued ??= running
      .catch(() => 0)
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };
}

/**
 * The streaming replica heavy seller reads go to (DATABASE_REPLICA_URL): `readerFor(company)`
 * is the executor one request's heavy reads use, the replica when it is up, within the lag
 * bound and past the company's latest write, the primary otherwise. Writes of a company record
 * their WAL position (`markWrite`, after the commit, before the answer leaves) so that the next
 * request of the same key or session reads them, whichever process it lands on.
 */
export class ReadReplica {
  /** The replica's executor: a query the replica cannot answer runs on the primary (replica-driver.ts). */
  readonly db: Db;
  private readonly pool: pg.Pool;
  /** The replica's reader thread: a CSV read here is parsed and formatted off the event loop. */
  private readonly offThread: PgReader;
  private readonly marks: WriteMarks;
  private readonly position: () => Promise<number>;
  private readonly replayPosition: () => Promise<number>;
  private readonly reads: Counter<'target' | 'reason'>;
  private replayed = 0;
  private up = false;
  private lagMs: number | null = null;
  /** Primary positions seen by the poller and not yet replayed, oldest first. */
  private pending: { at: number; lsn: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | null = null;
  private unrecordedUntil = 0;

  constructor(
    private readonly primary: Db,
    private readonly config: ReplicaConfig,
    options: { schema?: string; redis?: Redis; metrics: Metrics },
  ) {
    const settings = ['-c plan_cache_mode=force_generic_plan'];
    if (options.schema) settings.push(`-c search_path=${options.schema}`);
    this.pool = new (loadPg().Pool)({
      connectionString: config.url,
      max: 10,
      options: settings.join(' '),
      connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      keepAlive: true,
    });
    // A lost replica connection is an 'error' event; the query it interrupts runs on the primary.
    this.pool.on('error', () => {});
    this.pool.on('connect', (client) => client.on('error', () => {}));
    const replica = new PostgresDialect({ pool: this.pool });
    this.db = new Kysely<Database>({
      dialect: {
        createAdapter: () => replica.createAdapter(),
        createDriver: () => new FallbackDriver(replica.createDriver(), primary, () => this.fellBack()),
        createIntrospector: (db) => replica.createIntrospector(db),
        createQueryCompiler: () => replica.createQueryCompiler(),
      },
    });
    this.offThread = openPgReader({
      url: config.url,
      options: settings.join(' '),
      connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
    });
    attachPgReader(this.db, this.offThread);
    this.position = readAfterAsking(() => currentWalPosition(primary));
    this.replayPosition = readAfterAsking(() => this.readReplayPosition());
    this.marks = options.redis ? redisWriteMarks(options.redis, this.position) : tableWriteMarks(primary);
    this.reads = this.registerMetrics(options.metrics);
  }

  /** Starts watching the replica's replay; the first check is awaited. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), pollIntervalOf(this.config.maxLagMs));
    this.timer.unref();
  }

  /** The executor of a company's heavy read: the replica, or the primary when it would be stale or is down. */
  async readerFor(companyId: string): Promise<Executor> {
    const route = await this.route(companyId);
    this.reads.inc({ target: route === 'caught_up' ? 'replica' : 'primary', reason: route });
    return route === 'caught_up' ? this.db : this.primary;
  }

  /** Records that `companyId` wrote: its reads stay on the primary until the replica replays past now. */
  async markWrite(companyId: string): Promise<void> {
    await this.marks.record(companyId);
  }

  /**
   * A write's mark could not be recorded (Redis or the primary failed just then): this process
   * reads every company from the primary for the lag bound, past which the replica either
   * replayed the write or counts as lagging.
   */
  markUnrecorded(): void {
    this.unrecordedUntil = Date.now() + this.config.maxLagMs;
  }

  status(): ReplicaStatus {
    const state = !this.up ? 'down' : this.lagging() ? 'lagging' : 'streaming';
    return { state, lagMs: this.lagMs, maxLagMs: this.config.maxLagMs };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await this.offThread.close();
    await this.db.destroy();
  }

  private lagging(): boolean {
    return this.lagMs !== null && this.lagMs > this.config.maxLagMs;
  }

  private async route(companyId: string): Promise<ReadRoute> {
    if (!this.up) return 'down';
    if (this.lagging()) return 'lagging';
    if (Date.now() < this.unrecordedUntil) return 'recent_write';
    let mark: number;
    try {
      mark = await this.marks.of(companyId);
    } catch {
      // Without the marks, a recent write cannot be ruled out.
      return 'recent_write';
    }
    if (mark <= this.replayed) return 'caught_up';
    try {
      return mark <= (await this.replayPosition()) ? 'caught_up' : 'recent_write';
    } catch {
      this.lost();
      return 'down';
    }
  }

  /** The replica's replayed WAL position (it only rises). */
  private async readReplayPosition(): Promise<number> {
    this.replayed = Math.max(this.replayed, await replayedWalPosition(this.pool));
    return this.replayed;
  }

  /**
   * One check: the primary's position now joins the pending ones, the replica's replay position
   * clears those it passed, and the lag is the age of the oldest left (0 when none is).
   */
  private poll(): Promise<void> {
    this.polling ??= (async () => {
      try {
        const at = Date.now();
        const lsn = await this.position();
        this.pending.push({ at, lsn });
        const replayed = await this.replayPosition();
        this.pending = this.pending.filter((p) => p.lsn > replayed);
        this.lagMs = this.pending.length > 0 ? Date.now() - this.pending[0]!.at : 0;
        this.up = true;
      } catch {
        this.lost();
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  /** A query on the replica failed and ran on the primary. */
  private fellBack(): void {
    this.reads.inc({ target: 'primary', reason: 'replica_failed' });
    this.lost();
  }

  /** The replica failed a query or a check: reads go to the primary until a check succeeds. */
  private lost(): void {
    this.up = false;
    this.lagMs = null;
    this.pending = [];
  }

  private registerMetrics(metrics: Metrics): Counter<'target' | 'reason'> {
    const registers = [metrics.registry];
    const self = this;
    new Gauge({
      name: 'sdapi_db_replica_up',
      help: 'Whether heavy reads may use the read replica: 1 while it answers and replays within DATABASE_REPLICA_MAX_LAG_MS, 0 while it lags beyond it or is down.',
      registers,
      collect() {
        this.set(self.status().state === 'streaming' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'sdapi_db_replica_lag_seconds',
      help: 'Replay lag of the read replica: how long the oldest primary WAL position it has not replayed has waited (absent while down).',
      registers,
      collect() {
        if (self.lagMs === null) this.reset();
        else this.set(self.lagMs / 1000);
      },
    });
    return new Counter({
      name: 'sdapi_db_replica_reads_total',
      help: 'Heavy seller reads by where they ran (replica or primary) and why: caught_up (the replica), recent_write (the company wrote past the replay position), lagging, down, replica_failed (a replica query ran again on the primary).',
      labelNames: ['target', 'reason'] as const,
      registers,
    });
  }
}

/**
 * The executor of one request's heavy reads of `companyId` (a CSV, a list page, a statement):
 * the replica when one is configured and may serve them (ReadReplica.readerFor), else the primary.
 */
export async function heavyReader(
  ctx: { db: Db; replica?: ReadReplica },
  companyId: string,
): Promise<Executor> {
  return ctx.replica ? ctx.replica.readerFor(companyId) : ctx.db;
}
