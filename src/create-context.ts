import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { type DbHandle, onOwnConnection, openDatabase } from './db/database.js';
import { makeDaysOutsidePool } from './db/day-partitions.js';
import { ReadReplica } from './db/replica.js';
import { AuthCache } from './http/auth/auth-cache.js';
import { AdjustableClock, systemClock } from './lib/clock.js';
import { openGeoIp } from './lib/geo-ip.js';
import { MemoryRateLimitStore } from './lib/rate-limit/memory-store.js';
import { RedisRateLimitStore } from './lib/rate-limit/redis-store.js';
import type { RateLimitStore } from './lib/rate-limit/store.js';
import { SecretBox } from './lib/secret-box.js';
import { TtlCache } from './lib/ttl-cache.js';
import { grantsForCatalog } from './modules/allocations/grants-for-catalog.js';
import { checkoutPromises } from './modules/checkout/line/checkout-promises.js';
import { replayWithoutTakenBackKeys } from './modules/checkout/orders/taken-back-keys.js';
import { consoleOwnerMail } from './modules/console/owner-mail.service.js';
import { Mailer } from './modules/mail/index.js';
import { testClockStore } from './modules/operator/index.js';
import { Metrics } from './observability/metrics.js';

/**
 * The composition root of a process (or a test app): opens the database, Redis, the replica,
 * and wires what modules give each other (`promises`, `grants`, `ownerMail`, `replays`).
 */
const AUTH_INVALIDATION_CHANNEL = 'sdapi:auth-invalidate';

export async function createContext(config: Config, handle?: DbHandle): Promise<AppContext> {
  const database = handle ?? openDatabase(config.database);
  const databaseConfig = config.database;
  if (databaseConfig.engine === 'postgres') {
    makeDaysOutsidePool(database.db, (work) => onOwnConnection(databaseConfig, work));
  }
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

  let replica: ReadReplica | undefined;
  if (config.replica && database.engine === 'postgres') {
    replica = new ReadReplica(database.db, config.replica, {
      schema: config.database.engine === 'postgres' ? config.database.schema : undefined,
      redis: shared,
      metrics,
    });
    await replica.start();
    closers.unshift(() => replica!.close());
  }

  const ctx: AppContext = {
    config,
    db: database.db,
    engine: database.engine,
    replica,
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
    promises: checkoutPromises(() => ctx),
    grants: grantsForCatalog(() => ctx),
    replays: { asAnsweredNow: replayWithoutTakenBackKeys },
    ownerMail: consoleOwnerMail(() => ctx),
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
  return ctx;
}
