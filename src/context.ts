import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Config } from './config.js';
import { type Db, type DbHandle, type Engine, openDatabase } from './db/database.js';
import { AuthCache } from './http/auth/auth-cache.js';
import { AdjustableClock, type Clock, systemClock } from './lib/clock.js';
import { type GeoIp, openGeoIp } from './lib/geo-ip.js';
import { MemoryRateLimitStore } from './lib/rate-limit/memory-store.js';
import { RedisRateLimitStore } from './lib/rate-limit/redis-store.js';
import type { RateLimitStore } from './lib/rate-limit/store.js';
import { SecretBox } from './lib/secret-box.js';
import { TtlCache } from './lib/ttl-cache.js';
import { Mailer } from './modules/mail/mailer.js';
import { testClockStore } from './modules/operator/test-clock.repo.js';
import { Metrics } from './observability/metrics.js';

/** Everything a service needs from the outside world, built once per process (or per test app). */
export interface AppContext {
  config: Config;
  db: Db;
  engine: Engine;
  clock: Clock;
  /** Present only with SDAPI_TEST_CLOCK=1: lets the operator move time forward, for every process on the database. */
  testClock?: AdjustableClock;
  authCache: AuthCache;
  /** AES-256-GCM under SDAPI_MASTER_KEY for secrets at rest; absent when no master key is configured. */
  secrets?: SecretBox;
  /** Buyer IP to country at request time (docs/geo-ip.md). */
  geoIp: GeoIp;
  /** Company-level facts read on hot paths (whoami), ~60 s like the auth cache. */
  companyCache: TtlCache;
  rateLimits: RateLimitStore;
  /** The shared Redis connection when REDIS_URL is set (rate limits, hot-drop admission). */
  redis?: Redis;
  /** The process's Prometheus series (`GET /metrics` on the operator listener); modules may add their own. */
  metrics: Metrics;
  /** Console mail through SDAPI_SMTP_URL (invites, disabled-endpoint notices); disabled without it. */
  mailer: Mailer;
  /** Readiness checks of the dependencies (`GET /health/ready`): each resolves when its dependency answers. */
  probes: Record<string, () => Promise<unknown>>;
  /** Work started by a request that outlives it (export jobs); close() waits for it. */
  background: Set<Promise<unknown>>;
  /** Registers work `close()` runs before it closes Redis and the database (a heartbeat's last write). */
  atClose(task: () => Promise<unknown>): void;
  close(): Promise<void>;
}

/** Runs a task after the current request, tracked so that shutdown waits for it. Failures are the task's to record. */
export function runInBackground(ctx: AppContext, task: () => Promise<unknown>): Promise<unknown> {
  const promise = new Promise((resolve) => setImmediate(resolve)).then(task).catch(() => undefined);
  ctx.background.add(promise);
  void promise.finally(() => ctx.background.delete(promise));
  return promise;
}

const AUTH_INVALIDATION_CHANNEL = 'sdapi:auth-invalidate';

export async function createContext(config: Config, handle?: DbHandle): Promise<AppContext> {
  const database = handle ?? openDatabase(config.database);
  const testClock = config.testClock ? new AdjustableClock(testClockStore(database.db)) : undefined;
  const authCache = new AuthCache();
  const closers: (() => Promise<unknown>)[] = [];
  const closing: (() => Promise<unknown>)[] = [];
  let rateLimits: RateLimitStore = new MemoryRateLimitStore();
  let shared: Redis | undefined;
  const background = new Set<Promise<unknown>>();
  const probes: AppContext['probes'] = { database: () => sql`select 1`.execute(database.db) };
  const metrics = new Metrics(database.poolUse);
  const mailer = new Mailer(config, metrics.registry);

  if (config.redisUrl) {
    // Loaded only when configured: the CLI and embedded mode start without it.
    const { Redis } = await import('ioredis');
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
    shared = redis;
    const subscriber = redis.duplicate();
    // A lost connection is an 'error' event; the client reconnects by itself (and subscribes
    // again), and the commands it fails meanwhile answer 503 STORE_UNAVAILABLE.
    redis.on('error', () => {});
    subscriber.on('error', () => {});
    await subscriber.subscribe(AUTH_INVALIDATION_CHANNEL);
    subscriber.on('message', (_channel: string, target: string) => authCache.drop(target));
    // Best effort: with Redis down, other processes see the change when their ~60 s cache entry ends.
    authCache.onInvalidate(
      (target) => void redis.publish(AUTH_INVALIDATION_CHANNEL, target).catch(() => undefined),
    );
    rateLimits = new RedisRateLimitStore(redis);
    probes.redis = () => redis.ping();
    closers.push(
      () => subscriber.quit(),
      () => redis.quit(),
    );
  }

  return {
    config,
    db: database.db,
    engine: database.engine,
    clock: testClock ?? systemClock,
    testClock,
    authCache,
    companyCache: new TtlCache(60_000),
    secrets: config.masterKeyHex ? new SecretBox(config.masterKeyHex) : undefined,
    geoIp: openGeoIp(config.geoIpDb),
    rateLimits,
    redis: shared,
    metrics,
    mailer,
    probes,
    background,
    atClose: (task) => closing.push(task),
    async close() {
      await Promise.allSettled([...background]);
      mailer.close();
      for (const task of closing) await task().catch(() => undefined);
      await testClock?.flush();
      await rateLimits.close();
      for (const close of closers) await close();
      if (!handle) await database.close();
    },
  };
}
