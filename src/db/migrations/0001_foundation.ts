import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('production_access', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('api_agreement_signed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checkout_hold_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('keyless_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preorder_verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('seller_footprints')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('countries', 'text', (c) => c.notNull())
    .addColumn('currencies', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('allowed_ips', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('parent_key_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('api_keys_company_env')
    .on('api_keys')
    .columns(['company_id', 'environment'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('content_type', 'text')
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['company_id', 'environment', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('idempotency_records_created')
    .on('idempotency_records')
    .column('created_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_records', 'api_keys', 'seller_footprints', 'companies']) {
    await db.schema.dropTable(table).execute();
  }
}
