import type { Kysely } from 'kysely';

/**
 * The console's second factor, hardened:
 * - `console_users.totp_last_step`: the newest 30-second TOTP step a code of the user was
 *   accepted for. A code is taken only for a later step, by a conditional UPDATE, so a code
 *   works once even when two processes receive it at the same moment. 0 before any use.
 * - `console_sessions.failed_checks`: wrong current passwords and wrong codes given inside the
 *   session; a few of them end the session.
 * - `console_recovery_codes`: one-time codes that stand in for an authenticator code, stored as
 *   SHA-256 only; a used one keeps its row with `used_at` so the count left is a plain count.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('console_users')
    .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('console_sessions')
    .addColumn('failed_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('console_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('console_users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('console_recovery_codes_user_code')
    .on('console_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('console_recovery_codes').execute();
  await db.schema.alterTable('console_sessions').dropColumn('failed_checks').execute();
  await db.schema.alterTable('console_users').dropColumn('totp_last_step').execute();
}
