import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseConfigFrom } from '../../src/config.js';
import type { CompiledServer } from '../compiled-server.js';
import { createTestApp, ENGINE, type TestApp } from '../harness.js';
import { type PgBouncer, startPgBouncer } from '../pgbouncer.js';
import { type ProductionScenario, productionOrder, productionScenario } from '../production.js';
import {
  expectOnlyRetryableAnswers,
  expectStoredExactly,
  type KeyRun,
  orderLoad,
  RESUME_WITHIN_MS,
  startFleet,
  stopFleet,
} from './fleet.js';
import { type PrivateCluster, type Standby, startPrivateCluster, startStandby } from './private-cluster.js';

const APP_NAME = 'sdapi-fault-failover';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same request again, with its Idempotency-Key, on `server`. */
const orderAgain = (server: CompiledServer, s: ProductionScenario, run: KeyRun) =>
  fetch(`${server.seller}/api/seller/v1/orders`, {
    method: 'POST',
    headers: { ...s.seller.auth, 'content-type': 'application/json', 'idempotency-key': run.key },
    body: JSON.stringify(productionOrder(s, { orderReference: run.orderReference })),
  });

// A primary with a synchronous standby (private clusters), two server processes reaching it
// through a PgBouncer in transaction pooling: the primary crashes, the standby is promoted and
// the pooler pointed at it, as an HA manager does. LISTEN and migrations reach the server
// through the same pooler's session-pooled entry, so that one RELOAD moves everything.
describe.skipIf(ENGINE !== 'postgres')('a synchronous standby promoted under load, behind PgBouncer', () => {
  let primary: PrivateCluster;
  let standby: Standby;
  let pooler: PgBouncer;
  let t: TestApp;
  let s: ProductionScenario;
  let servers: CompiledServer[] = [];

  beforeAll(async () => {
    primary = await startPrivateCluster({ settings: ["synchronous_standby_names='standby1'"] });
    standby = await startStandby(primary);
    pooler = await startPgBouncer({
      serverUrl: primary.url,
      poolSize: 60,
      sessionDatabases: ['postgres'],
      settings: [
        // While no server answers, a query waits this long in the pooler, then fails (503).
        'query_wait_timeout = 2',
        // After a failed login to the server, try again this soon rather than in 15 s.
        'server_login_retry = 0.5',
      ],
    });
    const database = databaseConfigFrom(pooler.urlOf('postgres'), tmpdir(), undefined, {
      pooler: 'transaction',
      directUrl: pooler.sessionUrlOf('postgres'),
    });
    t = await createTestApp({ database });
    s = await productionScenario(t, { keyCount: 3000, quantityLimit: 3000 });
    servers = await startFleet(t, { PGAPPNAME: APP_NAME });
  }, 180_000);

  afterAll(async () => {
    await stopFleet(servers);
    await t?.close();
    await pooler?.stop();
    primary?.destroy();
    standby?.destroy();
  });

  it('503 during the switch, service within seconds of the promotion, every acknowledged order on the new primary once, no live claim taken over', async () => {
    let stop = false;
    const load = orderLoad({ servers: () => servers, s, clients: 30, until: () => stop, giveUpMs: 20_000 });
    await sleep(2000);
    primary.stop('immediate');
    standby.promote();
    const promotedAt = Date.now();
    await pooler.repoint(standby.url);
    await sleep(4000);
    stop = true;
    const runs = await load;

    for (const server of servers) expect(server.process.exitCode, server.output()).toBeNull();
    await expectOnlyRetryableAnswers(runs);
    const answers = runs.flatMap((r) => r.answers);
    expect(answers.filter((a) => a.code === 'STORE_UNAVAILABLE').length).toBeGreaterThan(0);
    // The fence never refused an execution: no claim changed hands while its process ran it.
    expect(answers.filter((a) => a.reason === 'claim_taken_over')).toEqual([]);
    // Each process serves again soon after the promotion (RESUME_WITHIN_MS).
    for (const index of [0, 1]) {
      const after = answers.filter((a) => a.server === index && a.at >= promotedAt && a.status === 200);
      const firstOk = after.sort((a, b) => a.endedAt - b.endedAt)[0];
      expect(firstOk, `process ${index}`).toBeDefined();
      expect(firstOk!.endedAt - promotedAt).toBeLessThan(RESUME_WITHIN_MS);
    }
    for (const r of runs) expect(r.orderId, JSON.stringify(r.answers)).not.toBeNull();

    // The test's own connections now reach the promoted standby, through the same pooler.
    const { rows } = await sql<{ recovery: boolean; port: number }>`select pg_is_in_recovery() as recovery,
      inet_server_port() as port`.execute(t.ctx.db);
    expect(rows[0]).toEqual({ recovery: false, port: standby.port });
    await expectStoredExactly(t, runs);

    // Every key retried through the switch ran once: sent again, it replays its one order.
    const retried = runs.filter((r) => r.answers.length > 1);
    expect(retried.length).toBeGreaterThan(0);
    for (const [i, r] of retried.entries()) {
      const response = await orderAgain(servers[i % 2]!, s, r);
      expect(response.status, r.key).toBe(200);
      expect(response.headers.get('idempotency-replayed')).toBe('true');
      expect(((await response.json()) as { data: { orderId: string } }).data.orderId).toBe(r.orderId);
    }
  }, 120_000);
});
