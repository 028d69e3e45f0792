import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseConfigFrom } from '../../src/config.js';
import type { CompiledServer } from '../compiled-server.js';
import { createTestApp, ENGINE, type TestApp } from '../harness.js';
import { type ProductionScenario, productionScenario } from '../production.js';
import {
  expectOnlyRetryableAnswers,
  expectServedBefore,
  expectStoredExactly,
  orderLoad,
  RESUME_WITHIN_MS,
  startFleet,
  stopFleet,
} from './fleet.js';
import { type PrivateCluster, startPrivateCluster } from './private-cluster.js';

const APP_NAME = 'sdapi-fault-restart';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ready = (server: CompiledServer) =>
  fetch(`${server.admin}/health/ready`).then(
    (r) => r.status,
    () => 0,
  );

// A private cluster (initdb + pg_ctl on a free port), never the shared one: it is stopped with
// -m immediate (a crash, as an OOM kill or a failover looks to the clients) and started again.
describe.skipIf(ENGINE !== 'postgres')('a PostgreSQL crash and restart under load (two processes)', () => {
  let cluster: PrivateCluster;
  let t: TestApp;
  let s: ProductionScenario;
  let servers: CompiledServer[] = [];

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    t = await createTestApp({ database: databaseConfigFrom(cluster.url, tmpdir()) });
    s = await productionScenario(t, { keyCount: 3000, quantityLimit: 3000 });
    servers = await startFleet(t, { PGAPPNAME: APP_NAME });
  }, 120_000);

  afterAll(async () => {
    await stopFleet(servers);
    await t?.close();
    cluster?.destroy();
  });

  it('no process exits, the outage answers 503 in the envelope, service and LISTEN resume well within the connection timeout, every order once', async () => {
    let stop = false;
    const load = orderLoad({ servers: () => servers, s, clients: 30, until: () => stop });
    await sleep(1500);
    const crashAt = Date.now();
    cluster.stop('immediate');
    await sleep(1500);
    // Unready while the database is down, each process still alive.
    expect(await Promise.all(servers.map(ready))).toEqual([503, 503]);
    cluster.start();
    const upAt = Date.now();
    await sleep(2500);
    stop = true;
    const runs = await load;

    for (const server of servers) expect(server.process.exitCode, server.output()).toBeNull();
    await expectOnlyRetryableAnswers(runs);
    const outage = runs.flatMap((r) => r.answers).filter((a) => a.status === 503);
    expect(outage.length).toBeGreaterThan(0);
    // Each process serves again soon after the database accepts connections (RESUME_WITHIN_MS).
    for (const index of [0, 1]) {
      const answers = runs.flatMap((r) => r.answers).filter((a) => a.server === index && a.at >= upAt);
      const firstOk = answers.filter((a) => a.status === 200).sort((a, b) => a.endedAt - b.endedAt)[0];
      expect(firstOk, `process ${index}`).toBeDefined();
      expect(firstOk!.endedAt - upAt).toBeLessThan(RESUME_WITHIN_MS);
    }
    // The load reached both processes before the crash (how many orders fit depends on what else
    // the machine runs: a fixed count failed beside the rest of the suite).
    expectServedBefore(runs, crashAt);
    // Every order answered for good, each within 10 s of its first attempt.
    for (const r of runs) {
      expect(r.orderId, JSON.stringify(r.answers)).not.toBeNull();
      expect(r.doneAt! - r.firstAt).toBeLessThan(10_000);
    }
    await expectStoredExactly(t, runs);
    expect(await Promise.all(servers.map(ready))).toEqual([200, 200]);
    // Each process LISTENs again for job wake-ups.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where application_name = ${APP_NAME} and query ilike 'listen %'`.execute(t.ctx.db);
    expect(rows[0]!.n).toBe(2);
  }, 60_000);
});
