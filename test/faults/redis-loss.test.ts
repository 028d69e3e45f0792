import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../admin.js';
import { type CompiledServer, freePort } from '../compiled-server.js';
import { createTestApp, ENGINE, type TestApp } from '../harness.js';
import { commitBody, reserveBody } from '../hot-drop.js';
import { type ProductionScenario, productionScenario } from '../production.js';
import { startFleet, stopFleet } from './fleet.js';

const LIMIT = 800;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A redis-server of its own (never the shared one: it is flushed and restarted empty). */
async function privateRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sdapi-redis-'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    probe.on('error', () => {});
    for (let i = 0; i < 100; i++) {
      if (
        await probe.connect().then(
          () => probe.ping().then(() => true),
          () => false,
        )
      )
        break;
      await sleep(50);
    }
    probe.disconnect();
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    /** Gone without saving: it comes back empty. */
    async kill() {
      const c = child!;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGKILL');
      await exited;
    },
    async destroy() {
      child?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(ENGINE !== 'postgres')('Redis loses the hot-drop store mid-drop (two processes)', () => {
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let t: TestApp;
  let s: ProductionScenario;
  let servers: CompiledServer[] = [];

  beforeAll(async () => {
    redis = await privateRedis();
    t = await createTestApp({ redisUrl: redis.url });
    s = await productionScenario(t, { keyCount: LIMIT + 100, quantityLimit: LIMIT });
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: true, reservationMaxQuantity: 3 });
    servers = await startFleet(t, { REDIS_URL: redis.url });
  }, 120_000);
  afterAll(async () => {
    await stopFleet(servers);
    await t?.close();
    await redis?.destroy();
  });

  const post = async (i: number, path: string, body: unknown, key: string) => {
    for (;;) {
      const response = await fetch(`${servers[i % 2]!.seller}/api/seller/v1${path}`, {
        method: 'POST',
        headers: { ...s.seller.auth, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as { code?: string; data?: Record<string, unknown> };
      // Redis down: 503 STORE_UNAVAILABLE in the envelope; the same key again.
      if (response.status === 503) {
        expect(json.code).toBe('STORE_UNAVAILABLE');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        await sleep(50);
        continue;
      }
      return { status: response.status, json };
    }
  };

  /**
   * Clients reserve (1-3 units) and commit until `until()`, each pausing `pauseMs` between sales
   * (so a phase that must outlast the faults cannot sell out first); returns the keys delivered.
   */
  async function sell(until: () => boolean, clients = 16, pauseMs = 0) {
    const delivered: string[] = [];
    let n = 0;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        while (!until()) {
          const i = n++;
          const reserved = await post(
            c,
            '/orders/reserve',
            reserveBody(s, { quantity: (i % 3) + 1 }),
            `r-${i}-${c}-${Date.now()}`,
          );
          if (reserved.status === 409 && reserved.json.code === 'SOLD_OUT') return;
          expect(reserved.status, JSON.stringify(reserved.json)).toBe(200);
          const id = reserved.json.data!.reservationId as string;
          const committed = await post(c + 1, '/orders/commit', commitBody(s, id), `c-${id}`);
          expect(committed.status, JSON.stringify(committed.json)).toBe(200);
          delivered.push(...(committed.json.data!.keys as string[]));
          if (pauseMs > 0) await sleep(pauseMs);
        }
      }),
    );
    return delivered;
  }

  const soldCount = async () =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from game_keys where order_id is not null and id in (
          select id from game_keys where pool_id = ${s.poolId})`.execute(t.ctx.db)
      ).rows[0]!.n,
    );
  const pool = () =>
    t.ctx.db
      .selectFrom('reservation_pools')
      .select(['carved'])
      .where('allocation_id', '=', s.allocationId)
      .executeTakeFirstOrThrow();
  const available = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/seller/v1/availability?skuCode=${s.skuCode}`,
        headers: s.seller.auth,
      })
    ).json().data.available as number;

  it('after FLUSHALL and a restart empty, the whole capacity sells; remainingSlots and availability exact; nothing oversold', async () => {
    let phase = 0;
    const first = sell(() => phase > 0, 8, 150);
    await sleep(800);
    const flusher = new Redis(redis.url);
    await flusher.flushall();
    flusher.disconnect();
    await sleep(800);
    await redis.kill();
    await sleep(500);
    await redis.start();
    await sleep(800);
    phase = 1;
    const before = await first;
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(LIMIT);

    // Exact after the faults: a reservation's remainingSlots is the limit less what is sold and held.
    const sold = await soldCount();
    expect(sold).toBe(before.length);
    const probe = await post(0, '/orders/reserve', reserveBody(s, { quantity: 2 }), `probe-${Date.now()}`);
    expect(probe.status, JSON.stringify(probe.json)).toBe(200);
    expect(probe.json.data!.remainingSlots).toBe(LIMIT - sold - 2);

    // Hot-drop off: every carved unit no live reservation holds comes back, whatever Redis says.
    const flusher2 = new Redis(redis.url);
    await flusher2.flushall();
    flusher2.disconnect();
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: false });
    expect((await pool()).carved).toBe(2);
    expect(await available()).toBe(LIMIT - sold - 2);
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: true });
    const probeId = probe.json.data!.reservationId as string;
    const probeDone = await post(1, '/orders/commit', commitBody(s, probeId), `pc-${probeId}`);
    expect(probeDone.status, JSON.stringify(probeDone.json)).toBe(200);

    // The rest sells to the last unit, never beyond it.
    const after = await sell(() => false, 24);
    const delivered = [...before, ...(probeDone.json.data!.keys as string[]), ...after];
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(delivered.length).toBe(LIMIT);
    expect(await soldCount()).toBe(LIMIT);
    expect(await available()).toBe(0);
    expect((await pool()).carved).toBe(0);
  }, 90_000);
});
