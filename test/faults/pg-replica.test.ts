import { tmpdir } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../src/admin-app.js';
import { buildApp } from '../../src/app.js';
import { type Config, databaseConfigFrom } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { createContext } from '../../src/create-context.js';
import { openDatabase } from '../../src/db/database.js';
import { createTestApp, ENGINE, type TestApp } from '../harness.js';
import { type ProductionScenario, productionOrder, productionScenario } from '../production.js';
import { type PrivateCluster, type Standby, startPrivateCluster, startStandby } from './private-cluster.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Wide enough that a read never counts as lagging by accident on a busy machine, except where a test waits it out. */
const MAX_LAG_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type App = Awaited<ReturnType<typeof buildApp>>;

/** A second process on the same primary and replica: its own pools, caches and metrics. */
async function secondProcess(config: Config) {
  const handle = openDatabase(config.database);
  const ctx = await createContext(config, handle);
  const app = await buildApp(ctx);
  await app.ready();
  const adminApp = await buildAdminApp(ctx);
  await adminApp.ready();
  return {
    app,
    adminApp,
    ctx,
    async close() {
      await app.close();
      await adminApp.close();
      await ctx.close();
      await handle.close();
    },
  };
}

/** Heavy reads counted by where they ran and why (sdapi_db_replica_reads_total). */
async function readsOf(ctx: AppContext): Promise<Record<string, number>> {
  const metric = ctx.metrics.registry.getSingleMetric('sdapi_db_replica_reads_total');
  if (!metric) throw new Error('no sdapi_db_replica_reads_total: the replica is not in use');
  const counts: Record<string, number> = {};
  for (const v of (await metric.get()).values) counts[`${v.labels.target}:${v.labels.reason}`] = v.value;
  return counts;
}

/** What the reads since `before` added, by target and reason. */
async function readsSince(ctx: AppContext, before: Record<string, number>) {
  const now = await readsOf(ctx);
  return Object.fromEntries(
    Object.entries(now)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );
}

async function onStandby(standby: Standby, statement: string) {
  const client = new pg.Client({ connectionString: standby.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function waitFor(check: () => Promise<boolean>, ms: number) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await sleep(100);
  }
}

// A private primary and a streaming standby (pg_basebackup -R), never the shared server: replay
// is paused and the standby stopped. Each write-mark store is tried: Redis, and the table on
// the primary that serves when REDIS_URL is unset.
describe.skipIf(ENGINE !== 'postgres')('heavy reads on a streaming replica (DATABASE_REPLICA_URL)', () => {
  let primary: PrivateCluster;
  let standby: Standby;

  beforeAll(async () => {
    primary = await startPrivateCluster();
    standby = await startStandby(primary);
  }, 120_000);

  afterAll(() => {
    standby?.destroy();
    primary?.destroy();
  });

  describe.each([
    ['the table on the primary', undefined],
    ['Redis', REDIS_URL],
  ])('read-your-writes with the marks in %s', (_store, redisUrl) => {
    let t: TestApp;
    let other: Awaited<ReturnType<typeof secondProcess>>;
    let s: ProductionScenario;

    beforeAll(async () => {
      t = await createTestApp({
        database: databaseConfigFrom(primary.url, tmpdir()),
        replica: { url: standby.url, maxLagMs: MAX_LAG_MS },
        redisUrl,
      });
      other = await secondProcess(t.config);
      s = await productionScenario(t, { keyCount: 40, quantityLimit: 40 });
    }, 120_000);

    afterAll(async () => {
      await other?.close();
      await t?.close();
    });

    /** An order through the first process; answers its id and reference. */
    async function order(): Promise<{ id: string; reference: string }> {
      const body = productionOrder(s);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/seller/v1/orders',
        headers: s.seller.auth,
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(200);
      return { id: response.json().data.orderId, reference: body.orderReference as string };
    }

    /** GET /orders/{id} and the activity CSV of the seller, at once, through `app`. */
    async function readBoth(app: App, placed: { id: string; reference: string }) {
      const [one, csv] = await Promise.all([
        app.inject({ method: 'GET', url: `/api/seller/v1/orders/${placed.id}`, headers: s.seller.auth }),
        app.inject({ method: 'GET', url: '/api/seller/v1/activity?format=csv', headers: s.seller.auth }),
      ]);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().data.orderReference).toBe(placed.reference);
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body).toContain(placed.reference);
    }

    /** The replica's state as /health/ready (operator listener) reports it. */
    const replicaState = async (app: App) =>
      (await app.inject({ method: 'GET', url: '/health/ready' })).json().replica?.state;

    it('an order, then GET /orders/{ref} and the activity CSV at once on another process, see it; once replayed, the replica serves', async () => {
      const placed = await order();
      const before = await readsOf(other.ctx);
      await readBoth(other.app, placed);
      const first = await readsSince(other.ctx, before);
      // Two heavy reads, each where the company's mark allowed.
      expect(Object.values(first).reduce((a, b) => a + b, 0)).toBe(2);

      // Once the standby replayed past the order, the same reads go to it.
      await waitFor(async () => {
        const mark = await readsOf(other.ctx);
        await readBoth(other.app, placed);
        return (await readsSince(other.ctx, mark))['replica:caught_up'] === 2;
      }, 10_000);
      expect(await replicaState(t.app)).toBe('streaming');
    });

    it('with replay paused, the company that wrote reads from the primary and sees its order; after resume the replica serves again', async () => {
      await onStandby(standby, 'select pg_wal_replay_pause()');
      try {
        const placed = await order();
        const before = await readsOf(other.ctx);
        await readBoth(other.app, placed);
        // The standby has not replayed the order (its reads would miss it): both went to the primary.
        expect(await readsSince(other.ctx, before)).toEqual({ 'primary:recent_write': 2 });

        // Past the lag bound every read goes to the primary, and readiness says so while staying ready.
        await sleep(MAX_LAG_MS + 1_000);
        await order(); // the primary moves on while the standby stands still
        await waitFor(async () => (await replicaState(other.adminApp)) === 'lagging', 5_000);
        const ready = await other.adminApp.inject({ method: 'GET', url: '/health/ready' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json().replica).toMatchObject({ state: 'lagging', maxLagMs: MAX_LAG_MS });
        const lagging = await readsOf(other.ctx);
        await readBoth(other.app, placed);
        expect(await readsSince(other.ctx, lagging)).toEqual({ 'primary:lagging': 2 });
      } finally {
        await onStandby(standby, 'select pg_wal_replay_resume()');
      }

      const placed = await order();
      await waitFor(async () => {
        const mark = await readsOf(other.ctx);
        await readBoth(other.app, placed);
        return (await readsSince(other.ctx, mark))['replica:caught_up'] === 2;
      }, 10_000);
      expect(await replicaState(other.adminApp)).toBe('streaming');
    });

    it('with the standby stopped nothing fails: orders and reads answer from the primary, the process stays ready', async () => {
      standby.stop('immediate');
      try {
        for (const app of [t.app, other.app]) {
          const placed = await order();
          await readBoth(app, placed);
          await readBoth(app, placed);
        }
        const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json().replica.state).toBe('down');
        const counts = await readsOf(t.ctx);
        expect((counts['primary:down'] ?? 0) + (counts['primary:replica_failed'] ?? 0)).toBeGreaterThan(0);
      } finally {
        standby.start();
      }
      await waitFor(async () => (await replicaState(t.app)) === 'streaming', 15_000);
    });
  });
});
