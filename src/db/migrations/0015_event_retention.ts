import { type Kysely, sql } from 'kysely';

/**
 * Event retention (docs/events.md): the purge job deletes old events with their deliveries and
 * attempt log, looked up by event and by delivery (the cascade from deliveries to attempts
 * needs the second index too, on both engines). The held deliveries (of disabled endpoints),
 * counted at every metrics scrape, get a partial index of their own.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .column('delivery_id')
    .execute();
  await sql`create index webhook_deliveries_held on webhook_deliveries (endpoint_id) where status = 'held'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_held').execute();
  await db.schema.dropIndex('webhook_attempts_delivery').execute();
  await db.schema.dropIndex('webhook_deliveries_event').execute();
}
