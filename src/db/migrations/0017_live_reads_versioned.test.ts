import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { productionScenario } from '../../../test/production.js';
import { GRANT_TERMS } from './0017_live_reads_versioned.js';
import { LATER_GRANT_TERMS } from './0028_replacement_policy_versioned.js';

const t = useTestApp();

/** What an order or a promise moves on a grant: never a catalog change. */
const COUNTERS = ['quantity_pulled', 'updated_at', 'promise_version'];

const version = async () =>
  Number((await t.ctx.db.selectFrom('catalog_version').select('version').executeTakeFirstOrThrow()).version);

describe('migration 0017: the grants and promotions bump the catalog version', () => {
  it('names every column of allocations either a term or a counter', async () => {
    const tables = await t.ctx.db.introspection.getTables();
    const columns = tables.find((table) => table.name === 'allocations')!.columns.map((c) => c.name);
    expect([...columns].sort()).toEqual([...GRANT_TERMS, ...LATER_GRANT_TERMS, ...COUNTERS].sort());
  });

  it('bumps it when a term or the status is set, not when the counters move', async () => {
    const s = await productionScenario(t);
    const before = await version();
    await sql`update allocations set quantity_pulled = quantity_pulled + 1, updated_at = updated_at + 1,
      promise_version = promise_version + 1 where id = ${s.allocationId}`.execute(t.ctx.db);
    expect(await version()).toBe(before);
    await sql`update allocations set status = 'paused' where id = ${s.allocationId}`.execute(t.ctx.db);
    expect(await version()).toBe(before + 1);
    await sql`update allocations set quantity_limit = 7 where id = ${s.allocationId}`.execute(t.ctx.db);
    expect(await version()).toBe(before + 2);
    await sql`update allocations set replacement_policy = '{"maxPerOrder":2,"windowDays":30}'
      where id = ${s.allocationId}`.execute(t.ctx.db);
    expect(await version()).toBe(before + 3);
  });
});
