import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSeller } from '../../test/factories.js';
import { ENGINE, useTestApp } from '../../test/harness.js';
import { call } from '../../test/route-contract.js';
import { createContext } from '../create-context.js';
import { claimTogether } from '../http/idempotency/batched.pg.js';
import { DAY_PARTITIONED } from '../jobs/partition-upkeep.js';
import { ensureEventDays, newEventId } from '../modules/events/outbox.service.js';
import { purgeOldRequests, REQUEST_LOG_RETENTION_MS } from '../modules/request-log/request-log.service.js';
import { type DbHandle, openDatabase } from './database.js';
import { DAY_MS, DAYS_AHEAD, keepDayPartitions, partitionName } from './day-partitions.js';
import * as repo from './day-partitions.repo.js';

const API = '/api/seller/v1';
const HOUR_MS = 3_600_000;
let probeRuns = 0;
const t = useTestApp({}, (app) => {
  app.post(`${API}/partition-probe`, {
    config: { auth: 'seller', idempotency: 'required' },
    schema: { body: Type.Object({ name: Type.String() }) },
    handler: async () => ({ data: { run: ++probeRuns } }),
  });
});

const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

describe.skipIf(ENGINE !== 'postgres')('day partitions on PostgreSQL', () => {
  let other: DbHandle;
  beforeAll(async () => {
    other = openDatabase(t.config.database);
    // Any DELETE on the partitioned tables is written down: retention must drop days, not delete rows.
    await sql`create table deletes_seen (tbl text not null)`.execute(t.ctx.db);
    await sql`create function note_delete() returns trigger language plpgsql as $$
      begin insert into deletes_seen values (tg_table_name); return null; end $$`.execute(t.ctx.db);
    for (const table of ['request_log', 'idempotency_records']) {
      await sql`create trigger note_delete before delete on ${sql.table(table)}
        for each statement execute function note_delete()`.execute(t.ctx.db);
    }
  });
  afterAll(async () => {
    await other?.close();
  });

  it("a process's first event, written inside a transaction that holds its pool's only connection, finds and makes its day outside that pool", async () => {
    const handle = openDatabase(t.config.database, { poolSize: 1 });
    const ctx = await createContext(t.config, handle);
    try {
      // Past what the upkeep makes ahead: the catalog is read, then the day made. Through the
      // pool of one, either would wait for the connection the transaction holds.
      const at = (dayOf(ctx.clock.now()) + DAYS_AHEAD + 5) * DAY_MS + HOUR_MS;
      await ctx.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await ensureEventDays(ctx, [newEventId(at)]);
      });
      expect(await repo.partitionsOf(t.ctx.db, 'outbox_events')).toContain(
        partitionName('outbox_events', dayOf(at)),
      );
    } finally {
      await ctx.close();
      await handle.close();
    }
  });

  it('a key claimed on either side of midnight, or again the next day, has one record: the first claim wins', async () => {
    const midnight = (dayOf(t.ctx.clock.now()) + 2) * DAY_MS;
    const claimAt = (db: DbHandle['db'], key: string, createdAt: number, owner: string) =>
      claimTogether(db, {
        k: { companyId: 'c-boundary', environment: 'sandbox', key },
        requestHash: 'h',
        lockedUntil: createdAt + 60_000,
        createdAt,
        owner,
      });
    for (let i = 0; i < 5; i++) {
      const key = `midnight-${i}`;
      // Two processes at once, one a moment before midnight, one a moment after.
      const won = await Promise.all([
        claimAt(t.ctx.db, key, midnight - 1, 'a'),
        claimAt(other.db, key, midnight + 1, 'b'),
      ]);
      expect(won.filter(Boolean)).toHaveLength(1);
      // A retry the next day lands in another partition, and is still refused.
      expect(await claimAt(t.ctx.db, key, midnight + DAY_MS + HOUR_MS, 'c')).toBe(false);
      const records = await t.ctx.db
        .selectFrom('idempotency_records')
        .select('owner')
        .where('idempotency_key', '=', key)
        .execute();
      expect(records).toEqual([{ owner: won[0] ? 'a' : 'b' }]);
    }
  });

  it('over 30 days the request log pages and idempotency replays read as before, and expired days are dropped, not deleted', async () => {
    const seller = await makeSeller(t);
    // Start half a minute before a midnight: every other step crosses one.
    t.ctx.testClock!.advance((dayOf(t.ctx.clock.now()) + 1) * DAY_MS - 30_000 - t.ctx.clock.now());
    const start = t.ctx.clock.now();
    const made: { id: string; at: number }[] = [];
    const logged = async (options: Parameters<typeof call>[1]) => {
      const at = t.ctx.clock.now();
      const result = await call(t, options);
      made.push({ id: String(result.headers['x-request-id']), at });
      return result;
    };
    const probe = (key: string) =>
      logged({
        method: 'POST',
        url: `${API}/partition-probe`,
        headers: { ...seller.auth, 'idempotency-key': key },
        payload: { name: 'same' },
      });
    const firstRuns = new Map<string, unknown>();

    for (let step = 0; step < 60; step++) {
      await logged({ method: 'GET', url: `${API}/whoami`, headers: seller.auth });
      const key = `step-${step}`;
      const first = await probe(key);
      expect(first.headers['idempotency-replayed']).toBeUndefined();
      firstRuns.set(key, first.body);
      // A retry a minute later, past midnight on every other step, and one of the key of 12 h ago.
      t.ctx.testClock!.advance(60);
      for (const again of [key, `step-${step - 1}`].filter((k) => firstRuns.has(k))) {
        const replay = await probe(again);
        expect(replay.headers['idempotency-replayed']).toBe('true');
        expect(replay.body).toEqual(firstRuns.get(again));
      }

      // Half a step later (no request sits on the retention's edge): the retention jobs, then the log.
      t.ctx.testClock!.advance(6 * 3600 - 60);
      while (await purgeOldRequests(t.ctx)) {}
      await keepDayPartitions(t.ctx.db, t.ctx.clock.now(), DAY_PARTITIONED);
      const now = t.ctx.clock.now();
      const expected = made
        .filter((r) => r.at > now - REQUEST_LOG_RETENTION_MS)
        .map((r) => r.id)
        .sort();
      const paged: { requestId: string; at: string }[] = [];
      let cursor: string | null = null;
      do {
        const page = await logged({
          method: 'GET',
          url: `${API}/request-logs?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
          headers: seller.auth,
        });
        expect(page.status).toBe(200);
        paged.push(...page.body.data);
        cursor = page.body.meta.nextCursor;
      } while (cursor);
      expect(paged.map((r) => r.requestId).sort()).toEqual(expected);
      const order = paged.map((r) => `${r.at} ${r.requestId}`);
      expect(order).toEqual([...order].sort().reverse());
      t.ctx.testClock!.advance(6 * 3600);
    }
    expect(probeRuns).toBe(60);

    const now = t.ctx.clock.now();
    await keepDayPartitions(t.ctx.db, now, DAY_PARTITIONED);
    // The events' days (30 days kept, and only once nothing waits) have their own test: event-partitions.test.ts.
    for (const { table, keptMs } of DAY_PARTITIONED.filter((d) => d.table !== 'outbox_events')) {
      const days = (await repo.partitionsOf(t.ctx.db, table)).sort();
      // Every day past retention is gone, the rest are there, and the week ahead is made.
      const expectedDays = [];
      for (let day = dayOf(now - keptMs); day <= dayOf(now) + DAYS_AHEAD; day++) {
        expectedDays.push(partitionName(table, day));
      }
      expect(days).toEqual(expectedDays);
      expect(days).not.toContain(partitionName(table, dayOf(start)));
    }
    const settings = await sql<{ options: string[] | null }>`select reloptions as options from pg_class
      where relname = ${partitionName('idempotency_records', dayOf(now) + DAYS_AHEAD)}`.execute(t.ctx.db);
    expect(settings.rows[0]?.options).toContain('autovacuum_vacuum_threshold=5000');
    const oldRequests = await t.ctx.db
      .selectFrom('request_log')
      .select('request_id')
      .where('company_id', '=', seller.company.id)
      .where('at', '<=', now - REQUEST_LOG_RETENTION_MS - DAY_MS)
      .execute();
    expect(oldRequests).toEqual([]);
    const keys = await t.ctx.db
      .selectFrom('idempotency_records')
      .select('idempotency_key')
      .where('company_id', '=', seller.company.id)
      .execute();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.length).toBeLessThanOrEqual(6);
    expect((await sql`select tbl from deletes_seen`.execute(t.ctx.db)).rows).toEqual([]);
  }, 240_000);
});
