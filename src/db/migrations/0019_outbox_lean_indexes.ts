import { type Kysely, sql } from 'kysely';

/**
 * Fewer index entries per event written (docs/events.md, "Waking the publisher"): every order
 * writes two outbox rows, each of which entered six indexes (five on SQLite, where `seq` is the
 * rowid). `outbox_events_company` served no query (the feed reads by `published_seq`); the
 * two indexes on `published_seq` now hold published rows only, so an insert, which is never
 * published yet, enters neither: the publisher adds each row once, instead of replacing a
 * NULL entry. Every reader of them asks for published rows (`published_seq is not null` or a
 * comparison on it), which both engines accept for such a partial index.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_events_company').execute();
  await db.schema.dropIndex('outbox_events_published').execute();
  await db.schema.dropIndex('outbox_events_feed').execute();
  await sql`create unique index outbox_events_published on outbox_events (published_seq)
    where published_seq is not null`.execute(db);
  await sql`create index outbox_events_feed on outbox_events (company_id, environment, published_seq)
    where published_seq is not null`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_events_feed').execute();
  await db.schema.dropIndex('outbox_events_published').execute();
  await db.schema
    .createIndex('outbox_events_published')
    .on('outbox_events')
    .column('published_seq')
    .unique()
    .execute();
  await db.schema
    .createIndex('outbox_events_feed')
    .on('outbox_events')
    .columns(['company_id', 'environment', 'published_seq'])
    .execute();
  await db.schema
    .createIndex('outbox_events_company')
    .on('outbox_events')
    .columns(['company_id', 'environment', 'created_at_us', 'seq'])
    .execute();
}
