import { describe, expect, it } from 'vitest';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { emit } from '../events/outbox.service.js';
import { publishDue } from './publisher.service.js';

const t = useTestApp();

const feed = (seller: TestSeller, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/seller/v1/events${query}`, headers: seller.auth });

async function ping(seller: TestSeller, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const [id] = await t.ctx.db.transaction().execute((trx) =>
      emit(t.ctx, trx, [{ companyId: seller.company.id, environment: 'sandbox' }], 'product.updated', {
        productId: `p${i}`,
        updatedAt: new Date(t.ctx.clock.now()).toISOString(),
      }),
    );
    ids.push(id!);
  }
  return ids;
}

describe('GET /events', () => {
  it('lists published events oldest first with a keyset cursor, a types filter and limit bounds', async () => {
    const seller = await makeSeller(t);
    const other = await makeSeller(t);
    const ids = await ping(seller, 5);
    await ping(other, 2);
    expect((await feed(seller)).json().data).toEqual([]); // not yet published
    await publishDue(t.ctx);
    const first = await feed(seller, '?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((e: { eventId: string }) => e.eventId)).toEqual(ids.slice(0, 2));
    expect(first.json().data[0]).toMatchObject({
      eventType: 'product.updated',
      eventVersion: 1,
      data: { productId: 'p0' },
    });
    expect(first.json().meta.hasMore).toBe(true);
    const second = await feed(seller, `?limit=10&cursor=${first.json().meta.nextCursor}`);
    expect(second.json().data.map((e: { eventId: string }) => e.eventId)).toEqual(ids.slice(2));
    expect((await feed(seller, '?types=order.fulfilled')).json().data).toEqual([]);
    expect((await feed(seller, '?types=product.updated,order.fulfilled')).json().data).toHaveLength(5);
    const unknown = await feed(seller, '?types=order.teleported');
    expect(unknown.statusCode).toBe(422);
    for (const limit of [0, 101]) expect((await feed(seller, `?limit=${limit}`)).statusCode).toBe(422);
  });

  it('keeps microsecond precision in since and nextSince, without skipping or repeating', async () => {
    const seller = await makeSeller(t);
    const ids = await ping(seller, 4);
    await publishDue(t.ctx);
    const all = (await feed(seller)).json().data as { eventId: string; publishedAt: string }[];
    expect(all[0]!.publishedAt).toMatch(/\.\d{6}Z$/);
    const page = await feed(seller, `?limit=2&since=${encodeURIComponent(all[0]!.publishedAt)}`);
    expect(page.json().data.map((e: { eventId: string }) => e.eventId)).toEqual(ids.slice(0, 2));
    const nextSince = page.json().meta.nextSince as string;
    expect(nextSince).toMatch(/\.\d{6}Z$/);
    const rest = await feed(seller, `?since=${encodeURIComponent(nextSince)}`);
    expect(rest.json().data.map((e: { eventId: string }) => e.eventId)).toEqual(ids.slice(2));
    expect((await feed(seller, '?since=yesterday')).statusCode).toBe(422);
  });

  it('lists an event that commits late (smaller outbox seq) after a reader has passed its neighbours', async () => {
    const seller = await makeSeller(t);
    const [early] = await ping(seller, 1);
    const earlySeq = (
      await t.ctx.db
        .selectFrom('outbox_events')
        .select('seq')
        .where('event_id', '=', early!)
        .executeTakeFirstOrThrow()
    ).seq;
    // Its transaction took a seq, but has not committed yet: nobody can see the row.
    await t.ctx.db.deleteFrom('outbox_events').where('event_id', '=', early!).execute();
    const [later] = await ping(seller, 1);
    await publishDue(t.ctx);
    const seen = await feed(seller);
    const cursor = seen.json().meta.nextCursor as string;
    const sinceMark = seen.json().meta.nextSince as string;
    // Now it commits, with the seq it took before `later`.
    await t.ctx.db
      .insertInto('outbox_events')
      .values({
        seq: earlySeq,
        event_id: early!,
        company_id: seller.company.id,
        environment: 'sandbox',
        event_type: 'product.updated',
        event_version: 1,
        payload: JSON.stringify({ productId: 'late', updatedAt: new Date(t.ctx.clock.now()).toISOString() }),
        created_at_us: t.ctx.clock.now() * 1000 - 5_000_000,
        deliver_after: 0,
        target_endpoint_id: null,
        published_seq: null,
        published_at_us: null,
      })
      .execute();
    expect(seen.json().data.map((e: { eventId: string }) => e.eventId)).toEqual([later]);
    await publishDue(t.ctx);
    const byCursor = await feed(seller, `?cursor=${cursor}`);
    expect(byCursor.json().data.map((e: { eventId: string }) => e.eventId)).toEqual([early]);
    const bySince = await feed(seller, `?since=${encodeURIComponent(sinceMark)}`);
    expect(bySince.json().data.map((e: { eventId: string }) => e.eventId)).toEqual([early]);
  });
});
