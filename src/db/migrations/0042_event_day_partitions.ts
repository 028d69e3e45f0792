import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { AUTOVACUUM } from './0024_flat_seller_reads.js';

/**
 * PostgreSQL: the events outbox, its webhook deliveries and their attempts become range-partitioned
 * by the day of their event, so that retention drops whole days instead of deleting rows
 * (docs/operations.md, "Day partitions"). The partition key of all three is `event_id`: an event
 * id is `evt_` and a UUIDv7 whose first 12 hex digits are its creation time in ms, so a day is
 * the id range [`evt_<hex of midnight>`, `evt_<hex of the next midnight>`), and a delivery and
 * its attempts (which carry their event's id) land in their event's day: one day of all three
 * drops together. `event_id` takes the "C" collation, so its ranges compare byte by byte
 * whatever the database's collation (equality is the same).
 *
 * Each table is rebuilt as 0040 does: renamed, a partitioned one `like` it takes its name, every
 * day holding an event and the week ahead get their partitions, all rows move over (retention is
 * the upkeep's: a day is dropped only when none of its events is waiting), the old tables go and
 * the keys and indexes come back under their names. Keys gain `event_id` (a partitioned table's
 * unique keys must hold its partition key):
 * - `outbox_events`: primary key (seq, event_id); `event_id` alone stays unique; the publication
 *   order index `outbox_events_published` is unique on (published_seq, event_id). published_seq
 *   is handed out by the one publisher under its lock (publisher.service.ts), as before.
 * - `webhook_deliveries`: primary key (id, event_id); its endpoint foreign key stays.
 * - `webhook_attempts`: primary key (seq, event_id); the foreign key to its delivery is held day
 *   by day: each day of attempts has (delivery_id, event_id) -> that day of deliveries (id,
 *   event_id), on delete cascade. An attempt's event is its delivery's, so both are in one day;
 *   PostgreSQL would not drop a day of deliveries referenced by a key on the whole table (the
 *   upkeep adds the key to each day it makes, db/day-partitions.ts).
 * The sequences of the `seq` columns move to the new tables. The outbox's autovacuum settings
 * (0024) move to each of its partitions.
 *
 * SQLite keeps its plain tables and batched deletes: nothing to do there.
 */

const DAY_MS = 86_400_000;
const DAYS_AHEAD = 7;

interface Rebuilt {
  table: string;
  primaryKey: { name: string; plain: string[] };
  uniques: { name: string; columns: string[]; partial?: string }[];
  indexes: { name: string; columns: string[]; partial?: string }[];
  foreignKeys: { name: string; columns: string[]; plain: string[]; references: string }[];
  sequence?: string;
}

// Referenced before referencing: built in this order, the old ones dropped in the reverse.
const TABLES: Rebuilt[] = [
  {
    table: 'outbox_events',
    primaryKey: { name: 'outbox_events_pkey', plain: ['seq'] },
    uniques: [
      { name: 'outbox_events_event_id_key', columns: ['event_id'] },
      { name: 'outbox_events_published', columns: ['published_seq'], partial: 'published_seq is not null' },
    ],
    indexes: [
      { name: 'outbox_events_unpublished', columns: ['seq'], partial: 'published_seq is null' },
      {
        name: 'outbox_events_feed',
        columns: ['company_id', 'environment', 'published_seq'],
        partial: 'published_seq is not null',
      },
      {
        name: 'outbox_events_feed_type',
        columns: ['company_id', 'environment', 'event_type', 'published_seq'],
        partial: 'published_seq is not null',
      },
    ],
    foreignKeys: [],
    sequence: 'seq',
  },
  {
    table: 'webhook_deliveries',
    primaryKey: { name: 'webhook_deliveries_pkey', plain: ['id'] },
    uniques: [],
    indexes: [
      {
        name: 'webhook_deliveries_due',
        columns: ['next_attempt_at', 'event_order'],
        partial: "status = 'pending'",
      },
      { name: 'webhook_deliveries_endpoint', columns: ['endpoint_id', 'status', 'event_order'] },
      { name: 'webhook_deliveries_company', columns: ['company_id', 'status', 'updated_at'] },
      { name: 'webhook_deliveries_event', columns: ['event_id'] },
      { name: 'webhook_deliveries_held', columns: ['endpoint_id'], partial: "status = 'held'" },
    ],
    foreignKeys: [
      {
        name: 'webhook_deliveries_endpoint_id_fkey',
        columns: ['endpoint_id'],
        plain: ['endpoint_id'],
        references: 'webhook_endpoints (id)',
      },
    ],
  },
  {
    table: 'webhook_attempts',
    primaryKey: { name: 'webhook_attempts_pkey', plain: ['seq'] },
    uniques: [],
    indexes: [
      { name: 'webhook_attempts_endpoint', columns: ['endpoint_id', 'seq'] },
      { name: 'webhook_attempts_delivery', columns: ['delivery_id'] },
      { name: 'webhook_attempts_body', columns: ['seq'], partial: 'response_body is not null' },
      { name: 'webhook_attempts_endpoint_type', columns: ['endpoint_id', 'event_type', 'seq'] },
    ],
    // Partitioned, the key is held day by day (see `up`).
    foreignKeys: [
      {
        name: 'webhook_attempts_delivery_id_fkey',
        columns: [],
        plain: ['delivery_id'],
        references: 'webhook_deliveries (id)',
      },
    ],
    sequence: 'seq',
  },
];

const hex12 = (ms: number) => ms.toString(16).padStart(12, '0');
const boundOf = (day: number) => `evt_${hex12(day * DAY_MS)}`;
const partitionName = (table: string, day: number) =>
  `${table}_d${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;

const ids = (columns: string[]) => sql.join(columns.map((c) => sql.id(c)));

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
async function restoreKeys(db: Kysely<any>, t: Rebuilt, partitioned: boolean) {
  const withEvent = (columns: string[]) => (partitioned ? [...columns, 'event_id'] : columns);
  await sql`alter table ${sql.table(t.table)} add constraint ${sql.id(t.primaryKey.name)}
    primary key (${ids(withEvent(t.primaryKey.plain))})`.execute(db);
  for (const u of t.uniques) {
    const columns = u.columns.includes('event_id') ? u.columns : withEvent(u.columns);
    if (u.partial) {
      await sql`create unique index ${sql.id(u.name)} on ${sql.table(t.table)} (${ids(columns)})
        where ${sql.raw(u.partial)}`.execute(db);
    } else {
      await sql`alter table ${sql.table(t.table)} add constraint ${sql.id(u.name)} unique (${ids(columns)})`.execute(
        db,
      );
    }
  }
  for (const i of t.indexes) {
    await sql`create index ${sql.id(i.name)} on ${sql.table(t.table)} (${ids(i.columns)})
      ${i.partial ? sql`where ${sql.raw(i.partial)}` : sql``}`.execute(db);
  }
  for (const fk of t.foreignKeys) {
    const columns = partitioned ? fk.columns : fk.plain;
    if (columns.length === 0) continue;
    await sql`alter table ${sql.table(t.table)} add constraint ${sql.id(fk.name)}
      foreign key (${ids(columns)}) references ${sql.raw(fk.references)} on delete cascade`.execute(db);
  }
}

/** Renames `t` to `old`, makes a new `t` like it (partitioned or not), and hands it the `seq` sequence. */
// biome-ignore lint/suspicious/noExplicitAny: see restoreKeys
async function replace(db: Kysely<any>, t: Rebuilt, old: string, partitioned: boolean) {
  await sql`alter table ${sql.table(t.table)} rename to ${sql.id(old)}`.execute(db);
  if (partitioned) {
    // `like` copies collations: the template's event_id is "C", and so the new table's.
    const template = `${t.table}_template`;
    await sql`create temporary table ${sql.id(template)} (like ${sql.table(old)} including defaults)`.execute(
      db,
    );
    await sql`alter table ${sql.id(template)} alter column event_id type text collate "C"`.execute(db);
    await sql`create table ${sql.table(t.table)} (like ${sql.id(template)} including defaults)
      partition by range (event_id)`.execute(db);
    await sql`drop table ${sql.id(template)}`.execute(db);
  } else {
    await sql`create table ${sql.table(t.table)} (like ${sql.table(old)} including defaults)`.execute(db);
    await sql`alter table ${sql.table(t.table)} alter column event_id type text collate "default"`.execute(
      db,
    );
  }
  if (t.sequence) {
    const { rows } = await sql<{
      name: string;
    }>`select pg_get_serial_sequence(${old}, ${t.sequence}) as name`.execute(db);
    await sql`alter sequence ${sql.raw(rows[0]!.name)} owned by ${sql.table(t.table)}.${sql.id(t.sequence)}`.execute(
      db,
    );
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see restoreKeys
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const today = Math.floor(Date.now() / DAY_MS);
  const { rows } = await sql<{ day: string }>`select distinct
    (('x' || substr(event_id, 5, 12))::bit(48)::bigint / ${DAY_MS}) as day from outbox_events`.execute(db);
  const days = new Set(rows.map((r) => Number(r.day)));
  for (let day = today; day <= today + DAYS_AHEAD; day++) days.add(day);
  for (const t of TABLES) {
    const old = `${t.table}_unpartitioned`;
    await replace(db, t, old, true);
    for (const day of [...days].sort((a, b) => a - b)) {
      const settings = AUTOVACUUM[t.table];
      await sql`create table ${sql.id(partitionName(t.table, day))} partition of ${sql.table(t.table)}
        for values from (${sql.lit(boundOf(day))}) to (${sql.lit(boundOf(day + 1))})
        ${settings ? sql`with (${sql.raw(settings)})` : sql``}`.execute(db);
    }
    await sql`insert into ${sql.table(t.table)} select * from ${sql.table(old)}`.execute(db);
  }
  for (const t of [...TABLES].reverse()) {
    await sql`drop table ${sql.table(`${t.table}_unpartitioned`)}`.execute(db);
  }
  for (const t of TABLES) await restoreKeys(db, t, true);
  for (const day of days) {
    const attempts = partitionName('webhook_attempts', day);
    await sql`alter table ${sql.id(attempts)} add constraint ${sql.id(`${attempts}_delivery_fkey`)}
      foreign key (delivery_id, event_id) references ${sql.id(partitionName('webhook_deliveries', day))} (id, event_id)
      on delete cascade`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see restoreKeys
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const t of TABLES) {
    const old = `${t.table}_partitioned`;
    await replace(db, t, old, false);
    await sql`insert into ${sql.table(t.table)} select * from ${sql.table(old)}`.execute(db);
  }
  for (const t of [...TABLES].reverse()) {
    await sql`drop table ${sql.table(`${t.table}_partitioned`)}`.execute(db);
  }
  for (const t of TABLES) {
    await restoreKeys(db, t, false);
    const settings = AUTOVACUUM[t.table];
    if (settings) await sql`alter table ${sql.table(t.table)} set (${sql.raw(settings)})`.execute(db);
  }
}
