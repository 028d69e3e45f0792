import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db, Engine } from './db/database.js';
import type { ReadReplica } from './db/replica.js';
import type { AuthCache } from './http/auth/auth-cache.js';
import type { Replays } from './http/idempotency/replays.js';
import type { AdjustableClock, Clock } from './lib/clock.js';
import type { GeoIp } from './lib/geo-ip.js';
import type { RateLimitStore } from './lib/rate-limit/store.js';
import type { SecretBox } from './lib/secret-box.js';
import type { TtlCache } from './lib/ttl-cache.js';
import type { GrantPromises } from './modules/allocations/grant-promises.js';
import type { CatalogGrants } from './modules/catalog/catalog-grants.js';
import type { Mailer } from './modules/mail/mailer.js';
import type { OwnerMail } from './modules/webhooks/endpoint-disabled-notice.js';
import type { Metrics } from './observability/metrics.js';

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
  /** The streaming replica heavy seller reads use when DATABASE_REPLICA_URL is set (db/replica.ts). */
  replica?: ReadReplica;
  /** The shared Redis connection when REDIS_URL is set (rate limits, hot-drop admission). */
  redis?: Redis;
  /**
   * What checkout has promised on grants (holds, pre-orders, carved units), what a grant's
   * change ends there, and who holds a pre-order of a release: given to allocations and
   * catalog, which checkout depends on.
   */
  promises: GrantPromises;
  /** Sellability after a catalog change, and a seller's stock per SKU: given to catalog, which allocations depends on. */
  grants: CatalogGrants;
  /** Tells a company's console owners of a disabled webhook endpoint: given to webhooks, which console depends on. */
  ownerMail: OwnerMail;
  /** A stored idempotent reply as it would be answered now: given to src/http by checkout. */
  replays: Replays;
  /** The process's Prometheus series (`GET /metrics` on the operator listener); modules may add their own. */
  metrics: Metrics;
  /** Console mail through SDAPI_SMTP_URL (invites, disabled-endpoint notices); disabled without it. */
  mailer: Mailer;
  /** Readiness checks of the dependencies (`GET /health/ready`): each resolves when its dependency answers. */
  probes: { database: () => Promise<unknown> } & Record<string, () => Promise<unknown>>;
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
