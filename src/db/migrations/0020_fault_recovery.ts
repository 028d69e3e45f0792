import type { Kysely } from 'kysely';

/**
 * Recovery from faults (docs/operations.md):
 * - `process_heartbeats`: each server process writes its row every second; an Idempotency-Key
 *   claim names its process (`idempotency_records.owner`), and a claim of a process whose
 *   heartbeat stopped is free within seconds instead of at the end of its 60 s lease.
 * - `reservation_pools.generation`: the generation of the hot-drop free units held in Redis;
 *   a rebuild from PostgreSQL after Redis lost them moves it on, so that units taken from, or
 *   given back to, the lost copy are never counted twice.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('process_heartbeats')
    .addColumn('process_id', 'text', (c) => c.primaryKey())
    .addColumn('beat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('idempotency_records').addColumn('owner', 'text').execute();
  await db.schema
    .alterTable('reservation_pools')
    .addColumn('generation', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reservation_pools').dropColumn('generation').execute();
  await db.schema.alterTable('idempotency_records').dropColumn('owner').execute();
  await db.schema.dropTable('process_heartbeats').execute();
}
