import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { ENGINE, useTestApp } from '../../../test/harness.js';
import { deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import {
  DAY_MS,
  DAYS_AHEAD,
  eventIdTime,
  keepDayPartitions,
  partitionName,
} from '../../db/day-partitions.js';
import * as partitions from '../../db/day-partitions.repo.js';
import { eventRetentionJob } from '../../jobs/event-retention.js';
import { DAY_PARTITIONED } from '../../jobs/partition-upkeep.js';
import { emit } from '../events/outbox.service.js';
import { publishDue } from './publisher.service.js';
import { EVENT_RETENTION_MS } from './retention.service.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();
const API = '/api/seller/v1';
const TABLES = ['outbox_events', 'webhook_deliveries', 'webhook_attempts'] as const;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
/** Two steps a day, 38 days; the paused endpoint is enabled 35 days in, its held event 32 days old. */
const STEPS = 76;
const ENABLE_STEP = 70;

const call = (s: TestSeller, method: 'GET' | 'POST', path: string, payload?: object) =>
  t.app.inject({ method, url: `${API}${path}`, headers: s.auth, ...(payload ? { payload } : {}) });

/** Every page of a keyset-paged list, `limit` at a time, following `meta.nextCursor`. */
async function allPages(s: TestSeller, path: string, limit: number) {
  const rows: { eventId: string }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await call(
      s,
      'GET',
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    rows.push(...body.data);
    if (!body.meta.hasMore) break;
    cursor = body.meta.nextCursor;
  }
  return rows;
}

describe.skipIf(ENGINE !== 'postgres')(
  'events, deliveries and attempts in day partitions (PostgreSQL)',
  () => {
    beforeAll(async () => {
      // Any DELETE on the three tables is written down: retention must drop days, not delete rows.
      await sql`create table deletes_seen (tbl text not null)`.execute(t.ctx.db);
      await sql`create function note_delete() returns trigger language plpgsql as $$
      begin insert into deletes_seen values (tg_table_name); return null; end $$`.execute(t.ctx.db);
      for (const table of TABLES) {
        await sql`create trigger note_delete before delete on ${sql.table(table)}
        for each statement execute function note_delete()`.execute(t.ctx.db);
      }
    });

    it('over 38 days the feed and the attempt log page as before, expired days are dropped whole, and a waiting delivery keeps its day', async () => {
      const s = await makeSeller(t);
      const r = await receiver((res) => res.writeHead(200).end());
      const all = (await call(s, 'POST', '/webhooks', { url: r.url })).json().data.id as string;
      const paused = (
        await call(s, 'POST', '/webhooks', { url: r.url, eventTypes: ['allocation.depleted'] })
      ).json().data.id as string;
      const tenant = { companyId: s.company.id, environment: 'sandbox' };
      const emitOne = async (n: number) =>
        (
          await t.ctx.db.transaction().execute((trx) =>
            emit(t.ctx, trx, [tenant], 'product.updated', {
              productId: `p${n}`,
              updatedAt: new Date(t.ctx.clock.now()).toISOString(),
            }),
          )
        )[0]!;

      // Start half a minute before a midnight: every other step has events on both sides of one.
      t.ctx.testClock!.advance(((dayOf(t.ctx.clock.now()) + 1) * DAY_MS - 30_000 - t.ctx.clock.now()) / 1000);
      const start = t.ctx.clock.now();
      const made: string[] = [];
      let waiting: { eventId: string; day: number } | null = null;
      let waitingKept = false;

      for (let step = 0; step < STEPS; step++) {
        made.push(await emitOne(2 * step));
        t.ctx.testClock!.advance(60);
        made.push(await emitOne(2 * step + 1));
        if (step === 4) {
          // Paused: its one event's delivery is held, past the retention, until the endpoint is enabled.
          expect((await call(s, 'POST', `/webhooks/${paused}/disable`)).statusCode).toBe(200);
          const [eventId] = await t.ctx.db.transaction().execute((trx) =>
            emit(t.ctx, trx, [tenant], 'allocation.depleted', {
              allocationId: 'a',
              skuCode: 'S',
              remaining: 0,
            }),
          );
          waiting = { eventId: eventId!, day: dayOf(eventIdTime(eventId!)) };
          made.push(eventId!);
        }
        if (step === ENABLE_STEP)
          expect((await call(s, 'POST', `/webhooks/${paused}/enable`)).statusCode).toBe(200);
        while ((await publishDue(t.ctx)) > 0) {}
        await deliverAll(t);

        // Half a step later (no event sits on the retention's edge): the retention jobs, then the reads.
        t.ctx.testClock!.advance(6 * 3600 - 60);
        const now = t.ctx.clock.now();
        const job = eventRetentionJob(t.ctx);
        while (await job.run()) {}
        await keepDayPartitions(t.ctx.db, now, DAY_PARTITIONED);

        // A day goes once its last instant is past the retention; the waiting delivery's day stays.
        const past = (id: string) => (dayOf(eventIdTime(id)) + 1) * DAY_MS <= now - EVENT_RETENTION_MS;
        const keptByWait = (id: string) =>
          waiting !== null && step < ENABLE_STEP && dayOf(eventIdTime(id)) === waiting.day;
        const expected = made.filter((id) => !past(id) || keptByWait(id));
        // Nothing published within the retention is ever missing.
        for (const id of made) if (eventIdTime(id) > now - EVENT_RETENTION_MS) expect(expected).toContain(id);
        const feed = await allPages(s, '/events', 7);
        expect(feed.map((e) => e.eventId)).toEqual(expected);
        const typed = await allPages(s, '/events?types=allocation.depleted', 3);
        expect(typed.map((e) => e.eventId)).toEqual(expected.filter((id) => id === waiting?.eventId));
        // The attempt log of the endpoint taking every type, newest first: one attempt per kept event.
        const log = await allPages(s, `/webhooks/${all}/deliveries`, 9);
        expect(log.map((a) => a.eventId)).toEqual([...expected].reverse());
        if (waiting && past(waiting.eventId) && step < ENABLE_STEP) {
          waitingKept = true;
          expect(await partitions.partitionsOf(t.ctx.db, 'webhook_deliveries')).toContain(
            partitionName('webhook_deliveries', waiting.day),
          );
        }
        t.ctx.testClock!.advance(6 * 3600);
      }
      expect(waitingKept).toBe(true);

      // Off the edge again: a day's events published just after its midnight keep it until then.
      t.ctx.testClock!.advance(6 * 3600);
      const now = t.ctx.clock.now();
      await keepDayPartitions(t.ctx.db, now, DAY_PARTITIONED);
      for (const table of TABLES) {
        const days = (await partitions.partitionsOf(t.ctx.db, table)).sort();
        // Every day past retention is gone (the waiting one too, once delivered), the rest are there, and the week ahead.
        const expectedDays = [];
        for (let day = dayOf(now - EVENT_RETENTION_MS); day <= dayOf(now) + DAYS_AHEAD; day++) {
          expectedDays.push(partitionName(table, day));
        }
        expect(days).toEqual(expectedDays);
        expect(days).not.toContain(partitionName(table, dayOf(start)));
      }
      const left = await t.ctx.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('event_id', '=', waiting!.eventId)
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
      expect((await sql`select tbl from deletes_seen`.execute(t.ctx.db)).rows).toEqual([]);
    }, 300_000);
  },
);
