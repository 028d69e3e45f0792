import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../../test/admin.js';
import { makeSeller, type TestSeller } from '../../test/factories.js';
import { ENGINE, useTestApp } from '../../test/harness.js';
import { deliverAll, useReceivers } from '../../test/webhook-receiver.js';
import { keepDayPartitions } from '../db/day-partitions.js';
import { emit } from '../modules/events/outbox.service.js';
import { eventRetentionJob } from './event-retention.js';
import { DAY_PARTITIONED } from './partition-upkeep.js';

const t = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();
const DAY_SECONDS = 24 * 3600;

const call = (s: TestSeller, method: 'GET' | 'POST', path: string, payload?: object) =>
  t.app.inject({ method, url: `/api/seller/v1${path}`, headers: s.auth, ...(payload ? { payload } : {}) });

async function advanceDays(days: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/clock',
    headers: adminHeaders,
    payload: { advanceSeconds: days * DAY_SECONDS },
  });
  expect(res.statusCode).toBe(200);
}

/**
 * The purge job's rounds until it reports no more expired events (SQLite), and a round of the
 * partition upkeep (PostgreSQL, where the purge deletes nothing and whole days are dropped).
 */
async function purge() {
  const job = eventRetentionJob(t.ctx, 2);
  while (await job.run());
  await keepDayPartitions(t.ctx.db, t.ctx.clock.now(), DAY_PARTITIONED);
}

const eventIds = async (s: TestSeller) =>
  (await call(s, 'GET', '/events?limit=100')).json().data.map((e: { eventId: string }) => e.eventId);
const rowsOf = async (table: 'webhook_deliveries' | 'webhook_attempts', eventId: string) =>
  (await t.ctx.db.selectFrom(table).select('event_id').where('event_id', '=', eventId).execute()).length;

describe('event retention (the event-retention job)', () => {
  it('purges events published more than 30 days ago with their deliveries, keeping any still waiting', async () => {
    const s = await makeSeller(t);
    let answer = 200;
    const r = await receiver((res) => res.writeHead(answer).end());
    const ep = (await call(s, 'POST', '/webhooks', { url: r.url })).json().data.id as string;
    // Real events: GET /events lists the company's events, not test sends.
    const tenant = { companyId: s.company.id, environment: 'sandbox' };
    const ping = async () =>
      (
        await t.ctx.db
          .transaction()
          .execute((trx) =>
            emit(t.ctx, trx, [tenant], 'keys.pulled', { orderReference: 'o', skuCode: 'S', pulled: 1 }),
          )
      )[0]!;

    const delivered = [await ping(), await ping(), await ping()];
    await deliverAll(t);
    answer = 500;
    const retrying = await ping(); // failed once: a retry is pending
    await deliverAll(t);
    expect(await rowsOf('webhook_attempts', delivered[0]!)).toBe(1);

    await advanceDays(29);
    const young = await ping(); // published 29 days after the others (and failing, pending too)
    await deliverAll(t);
    await purge();
    expect(await eventIds(s)).toEqual([...delivered, retrying, young]);

    await advanceDays(2); // the first four are 31 days old, `young` 2 days
    await purge();
    if (ENGINE === 'postgres') {
      // Whole days go: `retrying`, still waiting, keeps its day, and the events of that day with it.
      expect(await eventIds(s)).toEqual([...delivered, retrying, young]);
      expect(await rowsOf('webhook_attempts', delivered[0]!)).toBe(1);
    } else {
      expect(await eventIds(s)).toEqual([retrying, young]);
      for (const id of delivered) {
        expect(await rowsOf('webhook_deliveries', id)).toBe(0);
        expect(await rowsOf('webhook_attempts', id)).toBe(0);
      }
      const log = (await call(s, 'GET', `/webhooks/${ep}/deliveries`)).json().data;
      expect(new Set(log.map((a: { eventId: string }) => a.eventId))).toEqual(new Set([retrying, young]));
    }

    // Once its delivery is final, the kept event goes with the next sweep.
    answer = 200;
    await deliverAll(t);
    await purge();
    expect(await eventIds(s)).toEqual([young]);
    for (const id of [...delivered, retrying]) {
      expect(await rowsOf('webhook_deliveries', id)).toBe(0);
      expect(await rowsOf('webhook_attempts', id)).toBe(0);
    }
    const log = (await call(s, 'GET', `/webhooks/${ep}/deliveries`)).json().data;
    expect(new Set(log.map((a: { eventId: string }) => a.eventId))).toEqual(new Set([young]));
  });
});
