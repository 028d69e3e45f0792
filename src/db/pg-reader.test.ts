import { type Kysely, sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { AWKWARD_FIRST_LINE, awkwardActivityRows } from '../../test/awkward-activity.js';
import { alwaysOrder } from '../../test/checkout.js';
import { makeSeller } from '../../test/factories.js';
import { euroOrder, placeSale, reverseSale, sellerGet } from '../../test/finance.js';
import { ENGINE, useTestApp } from '../../test/harness.js';
import type { ActivityRow } from '../modules/finance/activity.repo.js';
import { ACTIVITY_CSV, activityCsv } from '../modules/finance/activity.service.js';
import type { Db } from './database.js';
import { heavyFormatted } from './heavy-read.js';
import { PG_READER_APPLICATION, type PgReader, pgReaderOf } from './pg-reader.js';

/** A formatter of any rows (their ids), for statements that are not activity entries. */
const IDS = `data:text/javascript,${encodeURIComponent('export const formatRows = (rows) => rows.map((r) => r.id).join();')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Statements of the reader thread's connections that are running now (pg_stat_activity). */
async function readerStatements(db: Db, like: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where application_name = ${PG_READER_APPLICATION} and state = 'active' and query like ${like}`.execute(
    db,
  );
  return rows[0]!.n;
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await sleep(50)) if (await check()) return true;
  return false;
}

describe.skipIf(ENGINE !== 'postgres')('the activity CSV on the PostgreSQL reader thread', () => {
  const t = useTestApp();
  const readerOf = (): PgReader => {
    const reader = pgReaderOf(t.ctx.db);
    expect(reader?.usable).toBe(true);
    return reader!;
  };

  it('formats rows there into the same bytes and last row as on the event loop', async () => {
    const db = t.ctx.db as unknown as Kysely<{ acts: ActivityRow }>;
    await awkwardActivityRows(db, 'bigint');
    const query = db.selectFrom('acts').selectAll().orderBy('created_at', 'desc');
    const onThread = vi.spyOn(readerOf(), 'formatted');
    try {
      const batch = await heavyFormatted(t.ctx.db, query, ACTIVITY_CSV);
      expect(onThread).toHaveBeenCalledTimes(1);
      const rows = await query.execute();
      expect(batch.count).toBe(3);
      // The thread parses int8 as the main pool does: the keyset of the next batch is a number.
      expect(batch.last).toEqual(rows.at(-1));
      expect(batch.last?.created_at).toBe(1_700_000_000_001);
      expect(Buffer.from(batch.bytes).toString()).toBe(ACTIVITY_CSV.formatRows(rows));
      expect(Buffer.from(batch.bytes).toString().split('\r\n')[0]).toBe(AWKWARD_FIRST_LINE);
    } finally {
      onThread.mockRestore();
    }
  });

  it('GET /activity?format=csv answers the same bytes from the thread as from the event loop', async () => {
    const seller = await makeSeller(t);
    await placeSale(t, seller, alwaysOrder({ quantity: 2 }));
    const sale = await placeSale(t, seller, euroOrder(1));
    await reverseSale(t, sale, Date.now());
    const reader = readerOf();
    const onThread = vi.spyOn(reader, 'formatted');
    const fromThread = await sellerGet(t, seller, '/activity?format=csv');
    expect(onThread).toHaveBeenCalled();
    onThread.mockRestore();
    const unusable = vi.spyOn(reader, 'usable', 'get').mockReturnValue(false);
    try {
      const fromLoop = await sellerGet(t, seller, '/activity?format=csv');
      expect(fromThread.status).toBe(200);
      expect(fromThread.raw).toBe(fromLoop.raw);
      // Not an empty comparison: header, two sales and the reversal.
      expect(fromThread.raw.trim().split('\r\n')).toHaveLength(4);
    } finally {
      unusable.mockRestore();
    }
  });

  it('an abort cancels the statement on the server and gives its connection back', async () => {
    const reader = readerOf();
    const stop = new AbortController();
    const running = reader.formatted("select 'slept' as id, pg_sleep(30)", [], IDS, stop.signal);
    const settled = running.then(
      () => 'answered',
      (err: Error) => err.name,
    );
    expect(await until(async () => (await readerStatements(t.ctx.db, '%pg_sleep(30)%')) === 1, 5_000)).toBe(
      true,
    );
    stop.abort();
    expect(await settled).toBe('AbortError');
    // Without the cancel the statement would run for 30 seconds.
    expect(await until(async () => (await readerStatements(t.ctx.db, '%pg_sleep(30)%')) === 0, 3_000)).toBe(
      true,
    );
    const after = await reader.formatted<{ id: string }>('select $1::text as id', ['x'], IDS);
    expect(Buffer.from(after.bytes).toString()).toBe('x');
  });

  it('a CSV stream destroyed early (the client went away) aborts the batch it asked for', async () => {
    const seller = await makeSeller(t);
    await placeSale(t, seller, euroOrder(1));
    const reader = readerOf();
    const signals: (AbortSignal | undefined)[] = [];
    const onThread = vi.spyOn(reader, 'formatted').mockImplementation((_sql, _parameters, _url, signal) => {
      signals.push(signal);
      return new Promise((_resolve, reject) =>
        signal?.addEventListener('abort', () => reject(signal.reason)),
      );
    });
    try {
      const stream = activityCsv(t.ctx, { sellerId: seller.company.id, environment: 'sandbox' });
      const chunks = stream[Symbol.asyncIterator]();
      await chunks.next(); // the header
      expect(await until(async () => signals.length === 1, 2_000)).toBe(true);
      stream.destroy();
      expect(await until(async () => signals[0]!.aborted, 2_000)).toBe(true);
    } finally {
      onThread.mockRestore();
    }
  });
});
