import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { requestLogRow, storedRequestCount } from '../../../test/request-log.js';
import { ensureDays } from '../../db/day-partitions.js';
import { RequestLogRecorder } from './request-log.recorder.js';

const t = useTestApp();

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Counts the recorder's transactions; each waits for `gate` before it runs. */
function gatedTransactions() {
  const real = t.ctx.db.transaction.bind(t.ctx.db);
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const started: number[] = [];
  vi.spyOn(t.ctx.db, 'transaction').mockImplementation(() => {
    const builder = real();
    return {
      execute: async (work: Parameters<typeof builder.execute>[0]) => {
        started.push(Date.now());
        await gate;
        return builder.execute(work);
      },
    } as unknown as ReturnType<typeof real>;
  });
  return {
    started,
    open() {
      open();
      gate = Promise.resolve();
    },
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the request log recorder', () => {
  it('writes a full buffer once however many requests arrive while that write waits, and leaves later rows for the next flush', async () => {
    const seller = await makeSeller(t);
    let n = 0;
    // PostgreSQL: the rows' day is known to have its partition, so only the recorder's writes count.
    const start = t.ctx.clock.now();
    await ensureDays(t.ctx.db, 'request_log', [start]);
    const row = () => {
      n += 1;
      return requestLogRow(
        seller.company.id,
        seller.keyId,
        `req_batch${String(n).padStart(15, '0')}`,
        start + n,
      );
    };
    const stored = () => storedRequestCount(t, seller.company.id);
    const transactions = gatedTransactions();
    const recorder = new RequestLogRecorder(t.ctx);
    // The recorder's one-second timer stays put: only full buffers and flush() write here.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // A full buffer starts a write, which waits for the writer (the gate).
    for (let i = 0; i < 500; i++) recorder.record(row());
    await nextTurn();
    expect(transactions.started).toHaveLength(1);
    // The buffer fills again while that write waits, and 50 more requests arrive: each of them
    // finds a full buffer, and all of them share the one write queued behind the first.
    for (let i = 0; i < 550; i++) recorder.record(row());
    transactions.open();
    // More requests trickle in while the queued write runs.
    for (let i = 0; i < 20; i++) {
      recorder.record(row());
      await nextTurn();
    }
    await vi.waitFor(async () => expect(await stored()).toBeGreaterThanOrEqual(1_050));
    for (let i = 0; i < 10; i++) await nextTurn();
    // 500, then what was waiting when the queued write started (550 and the requests that
    // trickled in before it) in two; requests after its start wait for the timer or the next
    // full buffer instead of a write each (the earlier recorder wrote one transaction per
    // trickling request here).
    expect(transactions.started).toHaveLength(3);
    await recorder.flush();
    expect(await stored()).toBe(1_070);
    expect(transactions.started.length).toBeLessThanOrEqual(4);
  });

  it('a flush asked for during a write also writes the rows recorded before it was asked', async () => {
    const seller = await makeSeller(t);
    const recorder = new RequestLogRecorder(t.ctx);
    const transactions = gatedTransactions();
    const row = (id: string, at: number) => requestLogRow(seller.company.id, seller.keyId, id, at);
    recorder.record(row('req_first000000000000000', 1_000));
    const first = recorder.flush();
    await nextTurn();
    recorder.record(row('req_second00000000000000', 2_000));
    const second = recorder.flush();
    transactions.open();
    await Promise.all([first, second]);
    const ids = await t.ctx.db
      .selectFrom('request_log')
      .select('request_id')
      .where('company_id', '=', seller.company.id)
      .orderBy('at')
      .execute();
    expect(ids.map((r) => r.request_id)).toEqual(['req_first000000000000000', 'req_second00000000000000']);
  });
});
