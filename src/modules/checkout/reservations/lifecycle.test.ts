import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../../test/admin.js';
import { ENGINE, type TestApp, useTestApp } from '../../../../test/harness.js';
import { commitBody, hotDropScenario, reserveBody, seller } from '../../../../test/hot-drop.js';
import type { ProductionScenario } from '../../../../test/production.js';
import { call, expectApiError } from '../../../../test/route-contract.js';
import { carvedOf } from '../../../../test/stored.js';
import { sweepReservations } from './lifecycle.service.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function lifecycle(t: TestApp, store: string) {
  const post = (s: ProductionScenario, path: string, body: unknown, key?: string) =>
    call(t, {
      method: 'POST',
      url: `/api/seller/v1${path}`,
      headers: seller(s, key),
      payload: body as Record<string, unknown>,
    });
  const reserve = (s: ProductionScenario, overrides: Record<string, unknown> = {}) =>
    post(s, '/orders/reserve', reserveBody(s, overrides));
  const statusOf = async (id: string) =>
    (
      await t.ctx.db
        .selectFrom('reservations')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;

  describe(`reservation lifecycle (${ENGINE}, ${store} store)`, () => {
    it('gives the slots of an expired reservation back without any request (the sweep)', async () => {
      const s = await hotDropScenario(t, { keyCount: 2 });
      const a = (await reserve(s, { quantity: 2 })).body.data;
      expectApiError(await reserve(s), 409, 'SOLD_OUT');
      t.ctx.testClock!.advance(61);
      expectApiError(
        await post(s, '/orders/commit', commitBody(s, a.reservationId)),
        410,
        'RESERVATION_GONE',
      );
      await sweepReservations(t.ctx);
      expect(await statusOf(a.reservationId)).toBe('expired');
      const again = await reserve(s, { quantity: 2 });
      expect(again.status).toBe(200);
      expect(again.body.data.remainingSlots).toBe(0);
    });

    it('tops the store up in the background when a take leaves it low; remainingSlots stays exact', async () => {
      const s = await hotDropScenario(t, { keyCount: 64 });
      const carved = () => carvedOf(t, s.allocationId);
      const settled = () => Promise.all([...t.ctx.background]);
      // The first reservation refills: a chunk of 8 (an eighth of 64) carved, 7 left free.
      expect((await reserve(s)).body.data.remainingSlots).toBe(63);
      // Down to 2 free: not low yet (a quarter of the next chunk is 2).
      for (let i = 0; i < 5; i++) await reserve(s);
      await settled();
      expect(await carved()).toBe(8);
      // Down to 1 free: low, and topped up with the next chunk (an eighth of the 56 uncarved).
      expect((await reserve(s)).body.data.remainingSlots).toBe(57);
      await settled();
      expect(await carved()).toBe(15);
      // The next reservation takes from the topped-up store: no refill, and nothing lost or doubled.
      expect((await reserve(s)).body.data.remainingSlots).toBe(56);
      expect(await carved()).toBe(15);
    });

    it('cancels a live reservation: slots back, order.returned; cancelling it again is gone', async () => {
      const s = await hotDropScenario(t, { keyCount: 1 });
      const a = (await reserve(s)).body.data;
      const cancelled = await post(s, '/orders/cancel', { reservationId: a.reservationId });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({
        reservationId: a.reservationId,
        status: 'released',
        quantity: 1,
      });
      const events = await eventsFor(t, s.sellerId, 'order.returned');
      expect(events.map((e) => e.data)).toEqual([{ orderReference: a.orderReference, quantity: 1 }]);
      expectApiError(
        await post(s, '/orders/cancel', { reservationId: a.reservationId }),
        410,
        'RESERVATION_GONE',
      );
      expectApiError(
        await post(s, '/orders/commit', commitBody(s, a.reservationId)),
        410,
        'RESERVATION_GONE',
      );
      expect((await reserve(s)).status).toBe(200);
    });

    it('fulfils exactly one of concurrent commits; the others are in progress or gone; the winner replays', async () => {
      const s = await hotDropScenario(t, { keyCount: 5 });
      const a = (await reserve(s, { quantity: 2 })).body.data;
      const keys = Array.from({ length: 8 }, (_, i) => `commit-${a.reservationId}-${i}`);
      const results = await Promise.all(
        keys.map((k) => post(s, '/orders/commit', commitBody(s, a.reservationId), k)),
      );
      const won = results.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(['RESERVATION_COMMIT_IN_PROGRESS', 'RESERVATION_GONE']).toContain(r.body.code);
      }
      const winnerKey = keys[results.findIndex((r) => r.status === 200)]!;
      const replay = await post(s, '/orders/commit', commitBody(s, a.reservationId), winnerKey);
      expect(replay.body.data.keyIds).toEqual(won[0]!.body.data.keyIds);
      expectApiError(
        await post(s, '/orders/commit', commitBody(s, a.reservationId)),
        410,
        'RESERVATION_GONE',
      );
      const sold = await t.ctx.db
        .selectFrom('game_keys')
        .select('id')
        .where('order_id', 'is not', null)
        .where('pool_id', '=', s.poolId)
        .execute();
      expect(sold).toHaveLength(2);
    });

    it('judges the next reservation on the catalog as changed since the last, taking nothing when refused', async () => {
      const s = await hotDropScenario(t, { keyCount: 5 });
      const first = await reserve(s);
      expect(first.status).toBe(200);
      await admin(
        t,
        'PUT',
        `/releases/${s.releaseId}/prices`,
        { countryCode: 'US', currencyCode: 'USD', listPriceCents: 6499 },
        200,
      );
      expectApiError(await reserve(s), 422, 'CATALOG_PRICE_MISMATCH');
      const second = await reserve(s, { expectedUnitPriceCents: 6499 });
      expect(second.status).toBe(200);
      expect(second.body.data.remainingSlots).toBe(first.body.data.remainingSlots - 1);
      await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: false });
      expectApiError(await reserve(s, { expectedUnitPriceCents: 6499 }), 412, 'HOT_DROP_NOT_ENABLED');
    });

    it('returns the free carved units when hot-drop mode is turned off', async () => {
      const s = await hotDropScenario(t, { keyCount: 3 });
      expect((await reserve(s)).status).toBe(200);
      await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { hotDrop: false });
      expect(await carvedOf(t, s.allocationId)).toBe(1);
      t.ctx.testClock!.advance(61);
      await sweepReservations(t.ctx);
      expect(await carvedOf(t, s.allocationId)).toBe(0);
    });
  });
}

lifecycle(useTestApp(), 'database');

if (ENGINE === 'postgres') {
  const t = useTestApp({ redisUrl: REDIS_URL });
  lifecycle(t, 'redis');

  describe('Redis down while configured', () => {
    it('answers 503 STORE_UNAVAILABLE and promises nothing', async () => {
      const s = await hotDropScenario(t, { keyCount: 3 });
      const live = t.ctx.redis;
      const dead = new Redis('redis://127.0.0.1:1', {
        maxRetriesPerRequest: 0,
        lazyConnect: true,
        retryStrategy: () => null,
      });
      dead.on('error', () => undefined);
      t.ctx.redis = dead;
      try {
        const r = await call(t, {
          method: 'POST',
          url: '/api/seller/v1/orders/reserve',
          headers: seller(s),
          payload: reserveBody(s),
        });
        expectApiError(r, 503, 'STORE_UNAVAILABLE');
      } finally {
        t.ctx.redis = live;
        dead.disconnect();
      }
      const rows = await t.ctx.db
        .selectFrom('reservations')
        .select('id')
        .where('allocation_id', '=', s.allocationId)
        .execute();
      expect(rows).toHaveLength(0);
    });
  });
}
