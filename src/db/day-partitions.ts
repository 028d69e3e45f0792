import type { Db, Executor } from './database.js';
import * as repo from './day-partitions.repo.js';
import { isPostgres } from './dialect.js';

/**
 * PostgreSQL's day partitions (migrations 0040 and 0042, docs/operations.md "Day partitions"):
 * the request log and the idempotency records are range-partitioned by the day of their creation
 * time; the events outbox, with its webhook deliveries and attempts alongside, by the day of the
 * event (its id's time). The upkeep makes each day's partitions DAYS_AHEAD days before it starts
 * and drops a day whole once all of it is past the table's retention (and, where the table says
 * so, once nothing in it still waits). SQLite has plain tables: nothing here runs there.
 */

/**
 * Whether `db` keeps the day-partitioned tables in day partitions (PostgreSQL), whose upkeep
 * drops the expired days whole: the row-by-row purges of those tables have nothing to do there.
 */
export const dropsExpiredDaysWhole = (db: Executor): boolean => isPostgres(db);

export const DAY_MS = 86_400_000;
/** An upkeep that stops for up to this many days still finds the partitions there. */
export const DAYS_AHEAD = 7;
const LOCK_WAIT_MS = 2_000;

export type DayPartitionedTable =
  | 'request_log'
  | 'idempotency_records'
  | 'outbox_events'
  | 'webhook_deliveries'
  | 'webhook_attempts';

/** The table a retention is given for: each of these days comes with the same day of the others. */
export type DayRetainedTable = 'request_log' | 'idempotency_records' | 'outbox_events';

/**
 * Tables partitioned by the day of another's rows, made and dropped with that day of it (dropped
 * first, referencing before referenced): a delivery and its attempts live in their event's day.
 */
const ALONGSIDE: Record<DayRetainedTable, readonly DayPartitionedTable[]> = {
  request_log: [],
  idempotency_records: [],
  outbox_events: ['webhook_deliveries', 'webhook_attempts'],
};

export interface DayRetention {
  table: DayRetainedTable;
  /** Rows are kept this long after their creation time. */
  keptMs: number;
  /**
   * Asked, under a lock that keeps every writer out of the day's partitions, before a day past
   * retention is dropped: false keeps it for the next round. `partitionOf` names the day's
   * partition of the table or of one alongside it.
   */
  mayDrop?: (
    ex: Executor,
    partitionOf: (table: DayPartitionedTable) => string,
    keptSinceMs: number,
  ) => Promise<boolean>;
}

const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * Autovacuum lives on the partitions (a partitioned table has no storage): each claim is updated
 * once with its reply, so a day's records vacuum every 5,000 dead rows, as the table did before
 * (docs/operations.md, "autovacuum on the hot tables"). The request log is only appended to.
 */
const PARTITION_SETTINGS: Partial<Record<DayPartitionedTable, string>> = {
  idempotency_records:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_cost_delay = 0',
  // Each event is updated once, on publication (docs/operations.md, "autovacuum on the hot tables").
  outbox_events:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_insert_scale_factor = 0.0, autovacuum_vacuum_insert_threshold = 20000, autovacuum_vacuum_cost_delay = 0',
};

/** Partitioned by `event_id` ("C" collation): `evt_` then a UUIDv7, whose first 12 hex digits are its ms. */
const BY_EVENT_ID: ReadonlySet<DayPartitionedTable> = new Set([
  'outbox_events',
  'webhook_deliveries',
  'webhook_attempts',
]);
const EVENT_ID_PREFIX = 'evt_';

/** The lowest event id of an instant: the bound of a day in the tables partitioned by event id. */
export const eventIdBound = (ms: number) => `${EVENT_ID_PREFIX}${ms.toString(16).padStart(12, '0')}`;

/** The instant an event id was made at (ms), from its UUIDv7. */
export const eventIdTime = (eventId: string) =>
  Number.parseInt(eventId.slice(EVENT_ID_PREFIX.length, EVENT_ID_PREFIX.length + 12), 16);

const boundOf = (table: DayPartitionedTable, ms: number) => (BY_EVENT_ID.has(table) ? eventIdBound(ms) : ms);

const rangeOf = (table: DayPartitionedTable, day: number) => ({
  from: boundOf(table, day * DAY_MS),
  to: boundOf(table, (day + 1) * DAY_MS),
  settings: PARTITION_SETTINGS[table],
});

const withAlongside = (table: DayRetainedTable) => [table, ...ALONGSIDE[table]];

/**
 * A day's foreign key to the same day of another table. PostgreSQL will not drop a day of a
 * partitioned table that another references as a whole, so the attempts' key to their delivery
 * is held day by day: an attempt carries its delivery's event id, so both live in one day, and
 * each day of attempts references that day of deliveries, on delete cascade as before.
 */
const DAY_REFERENCES: Partial<
  Record<
    DayPartitionedTable,
    { suffix: string; columns: string[]; table: DayPartitionedTable; key: string[] }
  >
> = {
  webhook_attempts: {
    suffix: 'delivery_fkey',
    columns: ['delivery_id', 'event_id'],
    table: 'webhook_deliveries',
    key: ['id', 'event_id'],
  },
};

/** The day of `table` and of the tables alongside it, each with its foreign key to its day. */
async function createDayOf(trx: Executor, table: DayRetainedTable, day: number, created?: string[]) {
  for (const each of withAlongside(table)) {
    const name = partitionName(each, day);
    await repo.createPartition(trx, each, name, rangeOf(each, day));
    created?.push(name);
    const ref = DAY_REFERENCES[each];
    if (ref) {
      await repo.addPartitionForeignKey(
        trx,
        `${name}_${ref.suffix}`,
        { partition: name, columns: ref.columns },
        { partition: partitionName(ref.table, day), key: ref.key },
      );
    }
  }
}

export const partitionName = (table: DayPartitionedTable, day: number) =>
  `${table}_d${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;

/** The day a partition of `table` covers, from its name; null for a name the upkeep did not give. */
function dayOfPartition(table: DayPartitionedTable, name: string): number | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(name.slice(table.length + 2));
  if (!name.startsWith(`${table}_d`) || !match) return null;
  return dayOf(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** The days each database handle is known to have partitions for, as `table:day`. */
const knownDays = new WeakMap<Db, Set<string>>();
/** Each handle's read of a table's partitions from the catalog, once per table and process. */
const catalogReads = new WeakMap<Db, Map<DayRetainedTable, Promise<void>>>();

/** Runs `work` on a connection outside the handle's pool (`onOwnConnection`). */
export type OwnConnection = <T>(work: (db: Db) => Promise<T>) => Promise<T>;
const ownConnections = new WeakMap<Db, OwnConnection>();

/**
 * Where `ensureDays` reads the catalog and makes a missing day for `db`: on a connection of its
 * own. Writers call it inside their transaction (events are written with the change that
 * causes them), so going through the same pool could wait for a connection that only those
 * waiting transactions would give back. Set when the context opens; a handle without one (a
 * script's) uses itself.
 */
export function makeDaysOutsidePool(db: Db, own: OwnConnection): void {
  ownConnections.set(db, own);
}

const outsidePool = (db: Db): OwnConnection => ownConnections.get(db) ?? ((work) => work(db));

async function knownOf(db: Db, table: DayRetainedTable): Promise<Set<string>> {
  const days = knownDays.get(db) ?? new Set<string>();
  knownDays.set(db, days);
  const reads = catalogReads.get(db) ?? new Map<DayRetainedTable, Promise<void>>();
  catalogReads.set(db, reads);
  let read = reads.get(table);
  if (!read) {
    // Concurrent first writers share one read; a failed read is tried again by the next.
    read = outsidePool(db)(async (own) => {
      for (const name of await repo.partitionsOf(own, table)) {
        const day = dayOfPartition(table, name);
        if (day !== null) days.add(`${table}:${day}`);
      }
    });
    reads.set(table, read);
    read.catch(() => reads.delete(table));
  }
  await read;
  return days;
}

/** Another session creating the same partition at the same moment: it exists, which is what was asked. */
const isMadeMeanwhile = (err: unknown) =>
  ['42P07', '23505', '42710'].includes((err as { code?: string }).code ?? '');

async function createDay(db: Db, table: DayRetainedTable, day: number) {
  await outsidePool(db)((own) =>
    own.transaction().execute(async (trx) => {
      await repo.limitLockWait(trx, LOCK_WAIT_MS);
      await createDayOf(trx, table, day);
    }),
  ).catch((err) => {
    if (!isMadeMeanwhile(err)) throw err;
  });
}

/**
 * Makes sure the days of `times` have their partitions before rows of those days are written:
 * the upkeep made them days ahead, so this costs a lookup in memory (the catalog is read once
 * per table and process), and a statement only when the clock has run past what the upkeep
 * made (a stopped upkeep, a test clock moved forward). The outbox's days come with their
 * deliveries' and attempts' days, which are written only for events that exist.
 */
export async function ensureDays(db: Db, table: DayRetainedTable, times: readonly number[]) {
  if (!isPostgres(db)) return;
  const known = await knownOf(db, table);
  for (const day of new Set(times.map(dayOf))) {
    if (known.has(`${table}:${day}`)) continue;
    await createDay(db, table, day);
    known.add(`${table}:${day}`);
  }
}

export interface UpkeepRound {
  created: string[];
  dropped: string[];
}

/**
 * One round of the upkeep on PostgreSQL: for each table, today's partition and DAYS_AHEAD more
 * are made, and every day whose end is past the retention is dropped. One transaction per
 * table, one process at a time; a round that waits too long for the table's lock fails and the
 * next one tries again.
 */
export async function keepDayPartitions(db: Db, now: number, tables: readonly DayRetention[]) {
  const round: UpkeepRound = { created: [], dropped: [] };
  if (!isPostgres(db)) return round;
  for (const { table, keptMs, mayDrop } of tables) {
    const known = await knownOf(db, table);
    const made: number[] = [];
    await db.transaction().execute(async (trx) => {
      if (!(await repo.tryUpkeepLock(trx))) return;
      await repo.limitLockWait(trx, LOCK_WAIT_MS);
      const days = new Map<number, string>();
      for (const name of await repo.partitionsOf(trx, table)) {
        const day = dayOfPartition(table, name);
        if (day !== null) days.set(day, name);
      }
      for (let day = dayOf(now); day <= dayOf(now) + DAYS_AHEAD; day++) {
        if (days.has(day)) continue;
        await createDayOf(trx, table, day, round.created);
        made.push(day);
      }
      for (const day of [...days.keys()].sort((a, b) => a - b)) {
        if ((day + 1) * DAY_MS > now - keptMs) continue;
        // Referencing before referenced: attempts, deliveries, then the events.
        const names = withAlongside(table)
          .map((each) => partitionName(each, day))
          .reverse();
        if (mayDrop) {
          // Dropping a partition locks its table whole anyway: taken first, in the writers' order
          // (an event, then its deliveries, then their attempts), nothing can start waiting in the
          // day between the question and the drop. A round that waits too long gives up.
          await repo.lockTables(trx, withAlongside(table));
          if (!(await mayDrop(trx, (each) => partitionName(each, day), now - keptMs))) continue;
        }
        await repo.dropPartitions(trx, names);
        round.dropped.push(...names);
        known.delete(`${table}:${day}`);
      }
    });
    // Known only once committed: a round that fails part way made nothing.
    for (const day of made) known.add(`${table}:${day}`);
  }
  return round;
}
