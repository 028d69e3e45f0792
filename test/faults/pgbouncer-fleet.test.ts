import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledServer } from '../compiled-server.js';
import { createPooledDatabase, createTestApp, ENGINE, TEST_DATABASE_URL, type TestApp } from '../harness.js';
import { type PgBouncer, startPgBouncer } from '../pgbouncer.js';
import { type ProductionScenario, productionScenario } from '../production.js';
import {
  expectOnlyRetryableAnswers,
  expectStoredExactly,
  orderLoad,
  startFleet,
  stopFleet,
} from './fleet.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The session advisory lock Kysely's migrator takes (its PostgreSQL adapter's lock id). */
const MIGRATOR_LOCK = 3853314791062309107n;

// Eight processes of twenty connections each share PgBouncer's twenty server connections
// (transaction pooling): a connection of theirs is another server session at each transaction,
// so nothing may rest on a session (named statements, start-up options, session locks).
describe.skipIf(ENGINE !== 'postgres')('eight processes behind PgBouncer in transaction pooling', () => {
  let pooler: PgBouncer;
  let t: TestApp;
  let dropDatabase = async () => {};
  let s: ProductionScenario;
  const servers: CompiledServer[] = [];

  beforeAll(async () => {
    pooler = await startPgBouncer({ serverUrl: TEST_DATABASE_URL!, poolSize: 20 });
    const created = await createPooledDatabase(TEST_DATABASE_URL!, pooler.urlOf('postgres'), tmpdir());
    dropDatabase = created.drop;
    t = await createTestApp({ database: created.database });
    s = await productionScenario(t, { keyCount: 2000, quantityLimit: 2000 });
    // Two at a time (a start is CPU-bound on this machine), each migrating on its direct URL
    // while DATABASE_URL is the pooler.
    for (let round = 0; round < 4; round++) servers.push(...(await startFleet(t, {}, 2)));
  }, 600_000);
  afterAll(async () => {
    await stopFleet(servers);
    await t?.close();
    await dropDatabase();
    await pooler?.stop();
  });

  it('started with the migrator lock released: no server connection behind the pooler still holds it', async () => {
    const held = await sql<{ n: number }>`select count(*)::int as n from pg_locks
      where locktype = 'advisory' and ((classid::bigint << 32) | objid::bigint) = ${MIGRATOR_LOCK}`.execute(
      t.ctx.db,
    );
    expect(held.rows[0]!.n).toBe(0);
    for (const server of servers) expect(server.process.exitCode, server.output()).toBeNull();
  });

  it('under order load every answer is a 200 or a retryable 503, every order is stored once, no key twice', async () => {
    let stop = false;
    const load = orderLoad({ servers: () => servers, s, clients: 40, until: () => stop });
    await sleep(4_000);
    stop = true;
    const runs = await load;

    for (const server of servers) expect(server.process.exitCode, server.output()).toBeNull();
    const statuses = new Set(runs.flatMap((r) => r.answers.map((a) => a.status)));
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    await expectOnlyRetryableAnswers(runs);
    // Every process served orders, and every client's orders completed.
    for (const index of servers.keys())
      expect(runs.some((r) => r.answers.some((a) => a.server === index && a.status === 200))).toBe(true);
    for (const r of runs) expect(r.orderId, JSON.stringify(r.answers)).not.toBeNull();
    await expectStoredExactly(t, runs);
  }, 120_000);
});
