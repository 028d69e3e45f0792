import { describe, expect, it } from 'vitest';
import { ENGINE, type TestApp, useTestApp } from '../harness.js';
import { commitBody, hotDropScenario, reserveBody, seller } from '../hot-drop.js';
import { useAlternatingApps } from '../second-app.js';
import { keysInPool, pulledOn } from '../stored.js';

const CLIENTS = 200;
const STOCK = 150;
const LIMIT = 120;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * On PostgreSQL two app processes share the database (and Redis when configured): this proves
 * the admission's locking. On SQLite (one process) it is accounting.
 */
function hotDrop(t: TestApp, label: string) {
  const appFor = useAlternatingApps(t, 10);

  const post = async (i: number, path: string, headers: Record<string, string>, body: unknown) => {
    const response = await appFor(i).inject({
      method: 'POST',
      url: `/api/seller/v1${path}`,
      headers,
      payload: body as Record<string, unknown>,
    });
    return { status: response.statusCode, body: response.json() };
  };

  const name = ENGINE === 'postgres' ? `two processes, ${label}` : 'accounting on SQLite';
  describe(`hot drop under ${CLIENTS} concurrent clients (${name})`, () => {
    it('never delivers beyond stock or quantityLimit, never a key twice; every live reservation commits', async () => {
      const s = await hotDropScenario(t, { keyCount: STOCK, quantityLimit: LIMIT });
      const results = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => {
          const quantity = (i % 2) + 1;
          const reserved = await post(i, '/orders/reserve', seller(s), reserveBody(s, { quantity }));
          if (reserved.status !== 200) return { quantity, reserved, committed: null };
          const id = reserved.body.data.reservationId as string;
          const committed = await post(i + 1, '/orders/commit', seller(s), commitBody(s, id));
          return { quantity, reserved, committed };
        }),
      );
      const refused = results.filter((r) => r.reserved.status !== 200);
      for (const r of refused) expect(r.reserved.body.code).toBe('SOLD_OUT');
      const accepted = results.filter((r) => r.reserved.status === 200);
      for (const r of accepted) expect(r.committed?.status, JSON.stringify(r.committed?.body)).toBe(200);
      const delivered = accepted.flatMap((r) => r.committed!.body.data.keys as string[]);
      expect(new Set(delivered).size).toBe(delivered.length);
      expect(delivered.length).toBeLessThanOrEqual(LIMIT);
      // Capacity only shrank (no reservation ended unconsumed): a refusal of q means fewer than
      // q slots were left at the end, so none was free when it was refused.
      const left = LIMIT - delivered.length;
      for (const r of refused) expect(r.quantity).toBeGreaterThan(left);
      expect(left).toBeLessThan(2);
      expect(await pulledOn(t, s.allocationId)).toBe(delivered.length);
      expect(await keysInPool(t, s.poolId, 'sold')).toBe(delivered.length);
      const pool = await t.ctx.db
        .selectFrom('reservation_pools')
        .select('carved')
        .where('allocation_id', '=', s.allocationId)
        .executeTakeFirstOrThrow();
      expect(pool.carved).toBeLessThanOrEqual(left);
    });
  });
}

hotDrop(useTestApp(), 'PostgreSQL alone');
if (ENGINE === 'postgres') hotDrop(useTestApp({ redisUrl: REDIS_URL }), 'PostgreSQL with Redis');
