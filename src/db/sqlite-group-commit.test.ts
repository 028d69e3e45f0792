import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from './database.js';
import { writeInGroup } from './dialect.js';

/** The SQLite driver itself (every SQLite transaction of the app runs through it). */
describe('SQLite group commit', () => {
  let path: string;
  let handle: DbHandle;
  /** Another connection to the same file: it sees only what was committed. */
  let observer: SqliteDatabase.Database;
  const committedRows = () => (observer.prepare('select count(*) as n from item').get() as { n: number }).n;

  beforeEach(async () => {
    path = join(mkdtempSync(join(tmpdir(), 'sdapi-group-')), 'db.sqlite');
    handle = openDatabase({ engine: 'sqlite', path });
    await sql`create table item (id integer primary key, label text not null unique)`.execute(handle.db);
    await sql`create table parent (id integer primary key)`.execute(handle.db);
    await sql`create table child (id integer primary key,
      parent_id integer references parent (id) deferrable initially deferred)`.execute(handle.db);
    observer = new SqliteDatabase(path, { readonly: true });
  });
  afterEach(async () => {
    observer.close();
    await handle.close();
  });

  const insert = (label: string) =>
    handle.db.transaction().execute(async (trx) => {
      await sql`insert into item (label) values (${label})`.execute(trx);
      await sql`select count(*) from item`.execute(trx);
      return label;
    });

  /** A transaction that holds the connection until `open` is called, so others queue behind it. */
  function gated(label: string) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const done = handle.db.transaction().execute(async (trx) => {
      await sql`insert into item (label) values (${label})`.execute(trx);
      await gate;
      return label;
    });
    return { open, done };
  }

  it('concurrent transactions share commits; each resolves once its group committed', async () => {
    const before = handle.groupCommits!();
    const labels = Array.from({ length: 40 }, (_, i) => `item-${i}`);
    const committed = (label: string) =>
      observer.prepare('select 1 from item where label = ?').get(label) !== undefined;
    const done = await Promise.all(labels.map((label) => insert(label).then(committed)));
    const after = handle.groupCommits!();
    expect(after.members - before.members).toBe(40);
    expect(after.groups - before.groups).toBeLessThan(40);
    // When each transaction resolved, another connection already saw its row: it was committed.
    expect(done.every(Boolean)).toBe(true);
    expect(committedRows()).toBe(40);
  });

  it('a failing member undoes its own writes only, and reports its error after the group commits', async () => {
    const first = gated('first');
    const failing = handle.db.transaction().execute(async (trx) => {
      await sql`insert into item (label) values ('lost')`.execute(trx);
      await sql`insert into item (label) values ('first')`.execute(trx); // unique violation
    });
    const outcome = failing.then(
      () => 'committed',
      (err: { code?: string }) => `${err.code} with ${committedRows()} committed`,
    );
    const last = insert('last');
    first.open();
    expect(await first.done).toBe('first');
    expect(await last).toBe('last');
    expect(await outcome).toBe('SQLITE_CONSTRAINT_UNIQUE with 2 committed');
    const labels = await sql<{ label: string }>`select label from item order by id`.execute(handle.db);
    expect(labels.rows.map((r) => r.label)).toEqual(['first', 'last']);
  });

  it('a read outside transactions runs on the reader: it answers at once with the last commit', async () => {
    const first = gated('first');
    const read = await sql<{ n: number }>`select count(*) as n from item`.execute(handle.db);
    expect(read.rows[0]!.n).toBe(0);
    first.open();
    await first.done;
    const again = await sql<{ n: number }>`select count(*) as n from item`.execute(handle.db);
    expect(again.rows[0]!.n).toBe(1);
  });

  it('writes through writeInGroup share group commits; each answers once it is committed', async () => {
    const before = handle.groupCommits!();
    const labels = Array.from({ length: 10 }, (_, i) => `lone-${i}`);
    const committed = (label: string) =>
      observer.prepare('select 1 from item where label = ?').get(label) !== undefined;
    const done = await Promise.all(
      labels.map((label) =>
        writeInGroup(handle.db, (ex) => sql`insert into item (label) values (${label})`.execute(ex)).then(
          () => committed(label),
        ),
      ),
    );
    expect(done.every(Boolean)).toBe(true);
    const after = handle.groupCommits!();
    expect(after.members - before.members).toBe(labels.length);
    expect(after.groups - before.groups).toBeLessThan(labels.length);
  });

  it('a COMMIT that fails fails every member of the group; the next one commits', async () => {
    const first = gated('first');
    const orphan = handle.db.transaction().execute(async (trx) => {
      // A deferred foreign key is checked only by the COMMIT, which it then fails.
      await sql`insert into child (id, parent_id) values (1, 42)`.execute(trx);
    });
    first.open();
    const outcomes = await Promise.allSettled([first.done, orphan]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    }
    expect(committedRows()).toBe(0);
    expect(await insert('after')).toBe('after');
    expect(committedRows()).toBe(1);
  });
});

describe('SQLite group commit, in-memory (one connection: reads share the writer)', () => {
  it('a statement run while a group is open answers after its COMMIT, and fails with it', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: ':memory:' });
    try {
      await sql`create table item (id integer primary key, label text not null)`.execute(handle.db);
      await sql`create table child (id integer primary key,
        parent_id integer references item (id) deferrable initially deferred)`.execute(handle.db);
      const groups = () => handle.groupCommits!().groups;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      const first = handle.db.transaction().execute(async (trx) => {
        await sql`insert into item (label) values ('first')`.execute(trx);
        await gate;
      });
      const before = groups();
      const read = sql<{ n: number }>`select count(*) as n from item`
        .execute(handle.db)
        .then((r) => ({ seen: r.rows[0]!.n, committedSince: groups() - before }));
      open();
      await first;
      expect(await read).toEqual({ seen: 1, committedSince: 1 });

      const second = handle.db.transaction().execute(async (trx) => {
        await sql`insert into child (id, parent_id) values (1, 42)`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
      const doomed = sql`select count(*) as n from item`.execute(handle.db);
      const outcomes = await Promise.allSettled([second, doomed]);
      expect(outcomes.map((o) => o.status === 'rejected' && o.reason.code)).toEqual([
        'SQLITE_CONSTRAINT_FOREIGNKEY',
        'SQLITE_CONSTRAINT_FOREIGNKEY',
      ]);
    } finally {
      await handle.close();
    }
  });
});
