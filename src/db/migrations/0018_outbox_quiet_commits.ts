import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The outbox insert no longer sends NOTIFY (docs/events.md, "Waking the publisher"). A transaction
 * that has sent NOTIFY takes one database-wide lock at commit and keeps it through its WAL flush,
 * so every order and reservation committed one at a time behind it (about a third of the raw rate
 * without it; figures in docs/events.md). The process that writes events now wakes its own
 * publisher (`onEventsWritten`); publishing still notifies the delivery jobs of every process.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger if exists outbox_events_notify on outbox_events`.execute(db);
  await sql`drop function if exists sdapi_notify_jobs()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function sdapi_notify_jobs() returns trigger language plpgsql as $$
    begin perform pg_notify('sdapi_jobs', 'webhooks-publish'); return null; end $$`.execute(db);
  await sql`create trigger outbox_events_notify after insert on outbox_events
    for each statement execute function sdapi_notify_jobs()`.execute(db);
}
