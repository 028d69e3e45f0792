import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/http/auth/scopes.js';
import { admin } from '../admin.js';
import { order } from '../after-sale.js';
import { makeSeller, type TestSeller } from '../factories.js';
import { ENGINE, useTestApp } from '../harness.js';
import { useAlternatingApps } from '../second-app.js';
import { pulledOn } from '../stored.js';

const t = useTestApp();
const CLIENTS = 20;

const appFor = useAlternatingApps(t, CLIENTS);

async function replace(i: number, seller: TestSeller, keyId: string) {
  const response = await appFor(i).inject({
    method: 'POST',
    url: '/api/seller/v1/keys/replace',
    headers: seller.auth,
    payload: { keyId },
  });
  return { status: response.statusCode, body: response.json() };
}

const title =
  ENGINE === 'postgres'
    ? 'key replacement exactly once under concurrency (PostgreSQL: two app instances, row locks)'
    : 'key replacement accounting under concurrent requests (SQLite: one process, serialised writer)';

describe(title, () => {
  it(`swaps each reported key once, within the per-order limit, across ${CLIENTS} concurrent requests`, async () => {
    const seller = await makeSeller(t, { scopes: [...SCOPES] });
    const placed = await order(t, seller, { quantity: 4 });
    await admin(t, 'PATCH', `/allocations/${placed.allocationId}`, {
      replacementPolicy: { maxPerOrder: 2, windowDays: 30 },
    });
    const pulledBefore = await pulledOn(t, placed.allocationId);
    // Every request reports one of three keys: two may be swapped (the limit), each once.
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => replace(i, seller, placed.keyIds[i % 3] as string)),
    );
    const swapped = results.filter((r) => r.status === 200);
    expect(swapped).toHaveLength(2);
    expect(new Set(swapped.map((r) => r.body.data.replacedKeyId)).size).toBe(2);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(['VALIDATION_FAILED', 'REPLACEMENT_NOT_ALLOWED'], JSON.stringify(r.body)).toContain(r.body.code);
    }

    const keys = await t.ctx.db
      .selectFrom('game_keys')
      .select(['id', 'state'])
      .where('order_id', '=', placed.orderId)
      .execute();
    expect(keys.filter((k) => k.state === 'sold')).toHaveLength(4);
    expect(keys.filter((k) => k.state === 'quarantined')).toHaveLength(2);
    const rows = await t.ctx.db
      .selectFrom('key_replacements')
      .selectAll()
      .where('order_id', '=', placed.orderId)
      .execute();
    expect(rows).toHaveLength(2);
    const entries = await t.ctx.db
      .selectFrom('activity_entries')
      .select('kind')
      .where('order_id', '=', placed.orderId)
      .where('kind', '=', 'replacement')
      .execute();
    expect(entries).toHaveLength(2);
    const events = await t.ctx.db
      .selectFrom('outbox_events')
      .select('event_id')
      .where('company_id', '=', seller.company.id)
      .where('event_type', '=', 'key.replaced')
      .execute();
    expect(events).toHaveLength(2);
    expect(await pulledOn(t, placed.allocationId)).toBe(pulledBefore);
  });
});
