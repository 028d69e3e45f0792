import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { AUTOVACUUM } from './0024_flat_seller_reads.js';

/**
 * PostgreSQL: the request log and the idempotency records become range-partitioned by day of
 * their creation time (ms epoch), so that retention drops whole days instead of deleting rows
 * (docs/operations.md, "Day partitions"). Each table is rebuilt: the old one is renamed, a
 * partitioned one `like` it takes its name, the days from the oldest kept row to a week ahead
 * get their partitions, the kept rows move over, the old table goes, and the indexes come back
 * under their names. The primary keys gain the creation time (a partitioned table's unique keys
 * must hold its partition key). Rows already past their retention are not moved. The records'
 * autovacuum settings (0024) move to each partition: a partitioned table has no storage.
 *
 * SQLite keeps its plain tables and batched deletes: nothing to do there.
 */

const DAY_MS = 86_400_000;
const DAYS_AHEAD = 7;

interface Rebuilt {
  table: string;
  column: string;
  keptMs: number;
  primaryKey: { name: string; plain: string[] };
  indexes: { name: string; columns: string[] }[];
}

const TABLES: Rebuilt[] = [
  {
    table: 'request_log',
    column: 'at',
    keptMs: 14 * DAY_MS,
    primaryKey: { name: 'request_log_pkey', plain: ['request_id'] },
    indexes: [
      { name: 'request_log_company', columns: ['company_id', 'environment', 'at'] },
      { name: 'request_log_at', columns: ['at'] },
    ],
  },
  {
    table: 'idempotency_records',
    column: 'created_at',
    keptMs: DAY_MS,
    primaryKey: { name: 'idempotency_records_pk', plain: ['company_id', 'environment', 'idempotency_key'] },
    indexes: [{ name: 'idempotency_records_created', columns: ['created_at'] }],
  },
];

const partitionName = (table: string, day: number) =>
  `${table}_d${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
async function restoreIndexes(db: Kysely<any>, t: Rebuilt, primaryKey: string[]) {
  await sql`alter table ${sql.table(t.table)} add constraint ${sql.id(t.primaryKey.name)}
    primary key (${sql.join(primaryKey.map((c) => sql.id(c)))})`.execute(db);
  for (const index of t.indexes) {
    await db.schema.createIndex(index.name).on(t.table).columns(index.columns).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see restoreIndexes
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const now = Date.now();
  for (const t of TABLES) {
    const old = `${t.table}_unpartitioned`;
    const column = sql.id(t.column);
    await sql`alter table ${sql.table(t.table)} rename to ${sql.id(old)}`.execute(db);
    await sql`create table ${sql.table(t.table)} (like ${sql.table(old)} including defaults)
      partition by range (${column})`.execute(db);
    const since = now - t.keptMs;
    const { rows } = await sql<{ last: string | null }>`select max(${column}) as last from ${sql.table(old)}
      where ${column} > ${since}`.execute(db);
    const first = Math.floor(since / DAY_MS);
    const last = Math.max(
      Math.floor(now / DAY_MS) + DAYS_AHEAD,
      Math.floor(Number(rows[0]?.last ?? 0) / DAY_MS),
    );
    for (let day = first; day <= last; day++) {
      const settings = AUTOVACUUM[t.table];
      await sql`create table ${sql.id(partitionName(t.table, day))} partition of ${sql.table(t.table)}
        for values from (${sql.lit(day * DAY_MS)}) to (${sql.lit((day + 1) * DAY_MS)})
        ${settings ? sql`with (${sql.raw(settings)})` : sql``}`.execute(db);
    }
    await sql`insert into ${sql.table(t.table)} select * from ${sql.table(old)} where ${column} > ${since}`.execute(
      db,
    );
    await sql`drop table ${sql.table(old)}`.execute(db);
    await restoreIndexes(db, t, [...t.primaryKey.plain, t.column]);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see restoreIndexes
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const t of TABLES) {
    const old = `${t.table}_partitioned`;
    await sql`alter table ${sql.table(t.table)} rename to ${sql.id(old)}`.execute(db);
    await sql`create table ${sql.table(t.table)} (like ${sql.table(old)} including defaults)`.execute(db);
    await sql`insert into ${sql.table(t.table)} select * from ${sql.table(old)}`.execute(db);
    await sql`drop table ${sql.table(old)}`.execute(db);
    await restoreIndexes(db, t, t.primaryKey.plain);
    const settings = AUTOVACUUM[t.table];
    if (settings) await sql`alter table ${sql.table(t.table)} set (${sql.raw(settings)})`.execute(db);
  }
}
