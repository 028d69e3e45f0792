import type { Kysely } from 'kysely';

/**
 * When each API key was last used (docs/console.md): the request-log recorder moves it forward
 * to the newest request of each batch it writes, off the request path; null until first use.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
}
