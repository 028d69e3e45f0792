import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, useTestApp } from '../../../../test/harness.js';
import {
  type PreorderScenario,
  preorderBody,
  preorderScenario,
  release,
} from '../../../../test/preorders.js';
import { call } from '../../../../test/route-contract.js';
import { pulledOn } from '../../../../test/stored.js';
import type { AppContext } from '../../../context.js';
import { createContext } from '../../../create-context.js';
import { type DbHandle, openDatabase } from '../../../db/database.js';
import { convertPreorder, convertReleasedPreorders } from './conversion.service.js';

const t = useTestApp();

/** A second app process on the same PostgreSQL schema: its own pool, caches and clock. */
let second: { ctx: AppContext; handle: DbHandle } | null = null;
beforeAll(async () => {
  if (ENGINE !== 'postgres') return;
  const handle = openDatabase(t.config.database, { poolSize: 4 });
  second = { ctx: await createContext(t.config, handle), handle };
});
afterAll(async () => {
  await second?.ctx.close();
  await second?.handle.close();
});

async function placePreorders(s: PreorderScenario, quantities: number[]) {
  const ids: string[] = [];
  for (const quantity of quantities) {
    const placed = await call(t, {
      method: 'POST',
      url: '/api/seller/v1/orders',
      headers: { ...s.seller.auth, 'idempotency-key': randomUUID() },
      payload: preorderBody(s, { quantity }),
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    ids.push(placed.body.data.orderId);
  }
  return ids;
}

async function expectConvertedOnce(s: PreorderScenario, ids: string[], quantities: number[]) {
  const keys = await t.ctx.db
    .selectFrom('game_keys')
    .select(['id', 'order_id'])
    .where('order_id', 'in', ids)
    .execute();
  expect(new Set(keys.map((k) => k.id)).size).toBe(keys.length);
  for (const [i, id] of ids.entries()) {
    expect(keys.filter((k) => k.order_id === id)).toHaveLength(quantities[i]!);
  }
  const sales = await t.ctx.db
    .selectFrom('sale_lines')
    .select('order_id')
    .where('order_id', 'in', ids)
    .execute();
  expect(sales.map((r) => r.order_id).sort()).toEqual([...ids].sort());
  const events = await t.ctx.db
    .selectFrom('outbox_events')
    .select('payload')
    .where('company_id', '=', s.sellerId)
    .where('event_type', '=', 'order.preorder_fulfilled')
    .execute();
  expect(events).toHaveLength(ids.length);
  expect(await pulledOn(t, s.allocationId)).toBe(quantities.reduce((a, b) => a + b, 0));
}

describe.runIf(ENGINE === 'postgres')('pre-order conversion from two app processes (PostgreSQL)', () => {
  it('converts each pre-order exactly once when both processes see the release at once', async () => {
    const quantities = [2, 1, 3, 1, 2, 1, 1, 2, 1, 1, 2, 3];
    const s = await preorderScenario(t, { keyCount: 20 });
    const ids = await placePreorders(s, quantities);
    await release(t, s);
    const rounds = await Promise.all([
      convertReleasedPreorders(t.ctx),
      convertReleasedPreorders(second!.ctx),
      convertReleasedPreorders(t.ctx),
      convertReleasedPreorders(second!.ctx),
    ]);
    const more = (await convertReleasedPreorders(t.ctx)) + (await convertReleasedPreorders(second!.ctx));
    expect(rounds.reduce((a, b) => a + b, 0) + more).toBe(ids.length);
    await expectConvertedOnce(s, ids, quantities);
  });

  it('lets one of two processes converting the same order win; the other finds it gone', async () => {
    const quantities = [1, 2, 1, 1, 2];
    const s = await preorderScenario(t, { keyCount: 7 });
    const ids = await placePreorders(s, quantities);
    await release(t, s);
    const outcomes = await Promise.all(
      ids.map((id) =>
        Promise.all([convertPreorder(t.ctx, t.ctx.db, id), convertPreorder(second!.ctx, second!.ctx.db, id)]),
      ),
    );
    for (const pair of outcomes) expect(pair.sort()).toEqual(['converted', 'gone']);
    await expectConvertedOnce(s, ids, quantities);
  });
});
