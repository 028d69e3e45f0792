import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { UsageCounter } from './usage-counter.js';

const t = useTestApp();

describe('UsageCounter', () => {
  it('writes counts in one upsert that adds to what another process already wrote for the day', async () => {
    const at = Date.UTC(2026, 10, 23, 12);
    const one = new UsageCounter();
    const other = new UsageCounter();
    for (let i = 0; i < 3; i++) one.record('co-usage', 'sandbox', 'catalog', at);
    one.record('co-usage', 'sandbox', 'orders', at);
    other.record('co-usage', 'sandbox', 'catalog', at + 1000);
    other.record('co-usage', 'sandbox', 'catalog', at + 86_400_000);
    await one.flush(t.ctx.db);
    await other.flush(t.ctx.db);
    await one.flush(t.ctx.db); // nothing new: writes nothing, adds nothing
    const rows = await t.ctx.db
      .selectFrom('api_usage_daily')
      .select(['day', 'route_class', 'calls'])
      .where('company_id', '=', 'co-usage')
      .orderBy('day')
      .orderBy('route_class')
      .execute();
    expect(rows.map((r) => ({ ...r, calls: Number(r.calls) }))).toEqual([
      { day: '2026-11-23', route_class: 'catalog', calls: 4 },
      { day: '2026-11-23', route_class: 'orders', calls: 1 },
      { day: '2026-11-24', route_class: 'catalog', calls: 1 },
    ]);
  });
});
