import type { Kysely } from 'kysely';

/**
 * The seller console (docs/console.md): company users, their one-time invites, server-side
 * sessions (the cookie carries only an opaque id; the row holds its SHA-256), the sign-in
 * throttle (per account and per hashed address), the company's console settings, the audit log
 * and the request log (14 days, written in batches after the reply).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('console_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'bigint')
    .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('removed_at', 'bigint')
    .execute();
  await db.schema.createIndex('console_users_company').on('console_users').column('company_id').execute();

  await db.schema
    .createTable('console_invites')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('console_invites_company').on('console_invites').column('company_id').execute();

  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('console_users.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();

  await db.schema
    .createTable('console_signin_failures')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('console_settings')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('require_totp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('console_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('console_audit_company')
    .on('console_audit')
    .columns(['company_id', 'at'])
    .execute();

  await db.schema
    .createTable('request_log')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_body', 'text')
    .addColumn('duration_ms', 'real', (c) => c.notNull())
    .addColumn('contract_date', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('request_log_company')
    .on('request_log')
    .columns(['company_id', 'environment', 'at'])
    .execute();
  await db.schema.createIndex('request_log_at').on('request_log').column('at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'request_log',
    'console_audit',
    'console_settings',
    'console_signin_failures',
    'console_sessions',
    'console_invites',
    'console_users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
