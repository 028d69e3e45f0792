import { describe, expect, it } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { JobRunner } from '../../jobs/runner.js';
import { emit } from '../events/outbox.service.js';
import { registerWebhookJobs } from './webhooks.jobs.js';

const t = useTestApp();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function publishedAfter(eventId: string, started: number): Promise<number> {
  for (;;) {
    const row = await t.ctx.db
      .selectFrom('outbox_events')
      .select('published_seq')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    if (row.published_seq !== null) return performance.now() - started;
    if (performance.now() - started > 3000) throw new Error(`${eventId} was not published within 3 s`);
    await sleep(5);
  }
}

describe('waking the publisher', () => {
  // The idle interval is 1 s on PostgreSQL (20 ms on SQLite, where this proves only that the
  // job publishes): published well within it means the write woke the publisher. A commit 150 ms
  // after the announcement lands in the prompt window (10 ms looks), one 600 ms after it in the
  // tail (50 ms looks); without either the publisher would be idle and take over a second.
  it('publishes an event written in this process well within the idle interval, even when it commits 150 or 600 ms after it was announced', async () => {
    const seller = await makeSeller(t);
    const runner = new JobRunner((job, err) => {
      throw new Error(`${job}: ${String(err)}`);
    });
    registerWebhookJobs(t.ctx, runner);
    runner.start();
    try {
      await sleep(2100); // past the looks after the seller's own events: the publisher is idle
      for (const commitDelay of [0, 150, 600]) {
        const started = performance.now();
        const eventId = await t.ctx.db.transaction().execute(async (trx) => {
          const [id] = await emit(
            t.ctx,
            trx,
            [{ companyId: seller.company.id, environment: 'sandbox' }],
            'product.updated',
            {
              productId: 'p1',
              updatedAt: new Date(t.ctx.clock.now()).toISOString(),
            },
          );
          await sleep(commitDelay);
          return id!;
        });
        expect(await publishedAfter(eventId, started)).toBeLessThan(commitDelay + 400);
        await sleep(2100); // past the tail: the publisher is idle again
      }
    } finally {
      await runner.stop();
    }
  });
});
