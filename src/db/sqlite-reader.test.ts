import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AWKWARD_FIRST_LINE, awkwardActivityRows } from '../../test/awkward-activity.js';
import { alwaysOrder } from '../../test/checkout.js';
import { makeSeller } from '../../test/factories.js';
import { euroOrder, placeSale, reverseSale, sellerGet } from '../../test/finance.js';
import { useTestApp } from '../../test/harness.js';
import type { ActivityRow } from '../modules/finance/activity.repo.js';
import { ACTIVITY_CSV } from '../modules/finance/activity.service.js';
import { type Db, openDatabase } from './database.js';
import { heavyFormatted, heavyRead } from './heavy-read.js';
import type { GroupCommitAdapter, GroupCommitDriver } from './sqlite-group-commit.js';
import { openSqliteReader } from './sqlite-reader.js';

// The reader thread needs a database file (an in-memory database cannot be opened twice), so
// these tests run on SQLite files under either engine's test run.
const dir = mkdtempSync(join(tmpdir(), 'sqlite-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A scratch table of these tests, outside the application's schema. */
const scratch = (db: Db) => db as unknown as Kysely<{ marks: { n: number } }>;
const driverOf = (db: Db) => (db.getExecutor().adapter as GroupCommitAdapter).driver as GroupCommitDriver;

describe('seller reads on the reader thread (SQLite file)', () => {
  const t = useTestApp({ database: { engine: 'sqlite', path: join(dir, 'app.sqlite') } });

  it('answer the same lists, CSV and statements as the main connection', async () => {
    const seller = await makeSeller(t);
    await placeSale(t, seller, alwaysOrder({ quantity: 2 }));
    const sale = await placeSale(t, seller, euroOrder(1));
    await reverseSale(t, sale, Date.now());
    const { created_at } = await t.ctx.db
      .selectFrom('sale_lines')
      .select('created_at')
      .where('id', '=', sale)
      .executeTakeFirstOrThrow();
    const month = new Date(created_at).toISOString().slice(0, 7);
    const paths = [
      '/orders',
      '/activity',
      '/activity?format=csv',
      '/transactions',
      '/finance/api-sales',
      '/finance/api-sales?entryType=sale_reversal',
      `/finance/statements?from=${month}&to=${month}`,
      `/finance/summary?from=${month}-01T00:00:00.000Z&to=${new Date(created_at + 1).toISOString()}`,
    ];

    const reader = driverOf(t.ctx.db).offThread;
    expect(reader?.usable).toBe(true);
    const offThread = vi.spyOn(reader!, 'all');
    const formattedOffThread = vi.spyOn(reader!, 'formatted');
    const onThread = await Promise.all(paths.map((path) => sellerGet(t, seller, path)));
    // The CSV's page is read and formatted there; every other read answers rows.
    expect(formattedOffThread).toHaveBeenCalledTimes(1);
    expect(offThread.mock.calls.length).toBeGreaterThanOrEqual(paths.length - 1);

    driverOf(t.ctx.db).offThread = null;
    try {
      const onMain = await Promise.all(paths.map((path) => sellerGet(t, seller, path)));
      for (const [i, path] of paths.entries()) {
        expect(onThread[i]!.status, path).toBe(200);
        expect(onThread[i]!.raw, path).toBe(onMain[i]!.raw);
      }
    } finally {
      driverOf(t.ctx.db).offThread = reader;
      offThread.mockRestore();
      formattedOffThread.mockRestore();
    }
    // Not an empty comparison: the lists hold the sales.
    expect(onThread[4]!.body.data).toHaveLength(3);
  });
});

describe('heavyRead (accounting on SQLite: ordering, not timing)', () => {
  it('a long read on the reader thread does not hold back a write on the main thread', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: join(dir, 'order.sqlite') });
    try {
      const db = scratch(handle.db);
      await db.schema.createTable('marks').addColumn('n', 'integer').execute();
      await heavyRead(handle.db, db.selectFrom('marks').selectAll()); // the thread is up
      const events: string[] = [];
      // A few hundred milliseconds of work for SQLite: on the main thread it would finish before the write starts.
      const long = sql<{
        total: number;
      }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 1000000) select sum(i) as total from c`;
      const read = heavyRead(handle.db, { compile: () => long.compile(db), execute: async () => [] }).then(
        (rows) => {
          events.push('read');
          return rows;
        },
      );
      await db.insertInto('marks').values({ n: 1 }).execute();
      events.push('write');
      const rows = await read;
      expect(events).toEqual(['write', 'read']);
      expect(Number(rows[0]!.total)).toBe((1_000_000 * 1_000_001) / 2);
      // The reader sees what was committed before its read began.
      expect(await heavyRead(handle.db, db.selectFrom('marks').select('n'))).toEqual([{ n: 1 }]);
    } finally {
      await handle.close();
    }
    expect(driverOf(handle.db).offThread?.usable).toBe(false);
  });

  it('formats rows on the reader thread into the same bytes as on the main connection', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: join(dir, 'formatted.sqlite') });
    try {
      const db = handle.db as unknown as Kysely<{ acts: ActivityRow }>;
      await awkwardActivityRows(db, 'integer');
      const query = db.selectFrom('acts').selectAll().orderBy('created_at', 'desc');
      const onThread = await heavyFormatted(handle.db, query, ACTIVITY_CSV);
      const thread = driverOf(handle.db).offThread;
      expect(thread?.usable).toBe(true);
      driverOf(handle.db).offThread = null;
      const onMain = await heavyFormatted(handle.db, query, ACTIVITY_CSV);
      driverOf(handle.db).offThread = thread;
      expect(onThread.count).toBe(3);
      expect(onThread.last).toEqual(onMain.last);
      expect(onThread.last?.id).toBe('e1');
      expect(Buffer.from(onThread.bytes).toString()).toBe(Buffer.from(onMain.bytes).toString());
      expect(Buffer.from(onThread.bytes).toString().split('\r\n')[0]).toBe(AWKWARD_FIRST_LINE);
    } finally {
      await handle.close();
    }
  });

  it('an in-memory database has no reader thread and reads on its one connection', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: ':memory:' });
    try {
      expect(driverOf(handle.db).offThread).toBeNull();
      const one = sql<{ one: number }>`select 1 as one`;
      const rows = await heavyRead(handle.db, {
        compile: () => one.compile(handle.db),
        execute: async () => (await one.execute(handle.db)).rows,
      });
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });

  it('falls back to the main connection when the thread cannot open the file', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: join(dir, 'fallback.sqlite') });
    const driver = driverOf(handle.db);
    const healthy = driver.offThread;
    const broken = openSqliteReader(join(dir, 'missing', 'nowhere.sqlite'));
    driver.offThread = broken;
    try {
      const db = scratch(handle.db);
      await db.schema.createTable('marks').addColumn('n', 'integer').execute();
      await db.insertInto('marks').values({ n: 7 }).execute();
      expect(await heavyRead(handle.db, db.selectFrom('marks').select('n'))).toEqual([{ n: 7 }]);
      expect(broken.usable).toBe(false);
    } finally {
      await broken.close();
      driver.offThread = healthy;
      await handle.close();
    }
  });

  it.skipIf(!existsSync('/proc/thread-self'))(
    'runs at a lower scheduling priority than the event loop (Linux)',
    async () => {
      const niceOfThreads = () =>
        readdirSync(`/proc/${process.pid}/task`).map((tid) => {
          const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        });
      const handle = openDatabase({ engine: 'sqlite', path: join(dir, 'nice.sqlite') });
      await scratch(handle.db).schema.createTable('marks').addColumn('n', 'integer').execute();
      const before = niceOfThreads();
      const reader = openSqliteReader(join(dir, 'nice.sqlite'));
      try {
        await reader.all('select 1', []);
        const after = niceOfThreads();
        expect(after.filter((nice) => nice === 10)).toHaveLength(
          before.filter((nice) => nice === 10).length + 1,
        );
        expect(Math.min(...after)).toBe(0);
      } finally {
        await reader.close();
        await handle.close();
      }
    },
  );
});
