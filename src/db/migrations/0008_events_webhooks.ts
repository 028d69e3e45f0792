import { type Kysely, sql } from 'kysely';
import { isPostgres, sequenceColumn, sequenceType } from '../dialect.js';

/**
 * Publication order of the outbox (docs/events.md), webhook endpoints, their deliveries and the
 * attempt log. On PostgreSQL an insert into the outbox notifies `sdapi_jobs` at commit, so
 * delivery workers wake at once instead of polling.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_events').addColumn('target_endpoint_id', 'text').execute();
  await db.schema.alterTable('outbox_events').addColumn('published_seq', 'bigint').execute();
  await db.schema.alterTable('outbox_events').addColumn('published_at_us', 'bigint').execute();
  await sql`create index outbox_events_unpublished on outbox_events (seq) where published_seq is null`.execute(
    db,
  );
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
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_company')
    .on('webhook_endpoints')
    .columns(['company_id', 'environment', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_order', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, event_order) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status', 'event_order'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_company')
    .on('webhook_deliveries')
    .columns(['company_id', 'status', 'updated_at'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('seq', sequenceType(db), sequenceColumn(db))
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('next_retry_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_endpoint')
    .on('webhook_attempts')
    .columns(['endpoint_id', 'seq'])
    .execute();

  if (isPostgres(db)) {
    await sql`create function sdapi_notify_jobs() returns trigger language plpgsql as $$
      begin perform pg_notify('sdapi_jobs', 'webhooks-publish'); return null; end $$`.execute(db);
    await sql`create trigger outbox_events_notify after insert on outbox_events
      for each statement execute function sdapi_notify_jobs()`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists outbox_events_notify on outbox_events`.execute(db);
    await sql`drop function if exists sdapi_notify_jobs()`.execute(db);
  }
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints']) {
    await db.schema.dropTable(table).execute();
  }
  for (const index of ['outbox_events_feed', 'outbox_events_published', 'outbox_events_unpublished']) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of ['published_at_us', 'published_seq', 'target_endpoint_id']) {
    await db.schema.alterTable('outbox_events').dropColumn(column).execute();
  }
}
