import type { Kysely } from 'kysely';

/**
 * `time_sweeps`: where each time-driven sweep has looked up to (docs/events.md, "Time-driven
 * sellability"): one row per sweep, locked by the process that sweeps, so that a moment of the
 * clock is swept once however many processes run the job.
 * `contract_sunsets`: the sunset date an operator published for a contract date
 * (docs/http-contract.md, "Versioning"); responses pinned to it carry Deprecation, Sunset, Link.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('time_sweeps')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('swept_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('contract_sunsets')
    .addColumn('contract_date', 'text', (c) => c.primaryKey())
    .addColumn('sunset_at', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contract_sunsets').execute();
  await db.schema.dropTable('time_sweeps').execute();
}
