import { type Kysely, sql } from 'kysely';

/**
 * Checkout-page geo attestations (docs/checkout.md): one row per attestation a seller creates,
 * captured by the buyer's browser, spent on one order reference; the captured address sealed
 * until the clearing job empties it. Hosted redemption links of keyless fulfilments (a hashed
 * token to find the record, the token sealed so the order's replay can show the link again,
 * revocation and the first reveal). Key replacements (docs/after-sale.md), one per replaced
 * key, and the grant's replacement policy. The earlier table of spent attestation strings is
 * dropped: an attestation is now a row of its own.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('geo_attestations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('captured_at', 'bigint')
    .addColumn('country_code', 'text')
    .addColumn('address_sealed', 'text')
    .addColumn('address_cleared_at', 'bigint')
    .addColumn('order_reference', 'text')
    .addColumn('spent_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index geo_attestations_sealed_expiry on geo_attestations (expires_at)
    where address_sealed is not null`.execute(db);
  await db.schema.dropTable('geo_attestation_uses').execute();

  await db.schema.alterTable('redemptions').addColumn('token_hash', 'text').execute();
  await db.schema.alterTable('redemptions').addColumn('token_sealed', 'text').execute();
  await db.schema.alterTable('redemptions').addColumn('revoked_at', 'bigint').execute();
  await db.schema.alterTable('redemptions').addColumn('revealed_at', 'bigint').execute();
  await db.schema.createIndex('redemptions_token').on('redemptions').column('token_hash').unique().execute();
  await db.schema.createIndex('redemptions_order').on('redemptions').column('order_id').execute();

  await db.schema.alterTable('allocations').addColumn('replacement_policy', 'text').execute();
  await db.schema
    .createTable('key_replacements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('allocation_id', 'text', (c) => c.notNull())
    .addColumn('replaced_key_id', 'text', (c) => c.notNull().unique())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('key_replacements_order').on('key_replacements').column('order_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('key_replacements').execute();
  await db.schema.alterTable('allocations').dropColumn('replacement_policy').execute();
  await db.schema.dropIndex('redemptions_order').execute();
  await db.schema.dropIndex('redemptions_token').execute();
  for (const column of ['revealed_at', 'revoked_at', 'token_sealed', 'token_hash']) {
    await db.schema.alterTable('redemptions').dropColumn(column).execute();
  }
  await db.schema
    .createTable('geo_attestation_uses')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('attest_id', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('geo_attestation_uses_pk', ['company_id', 'environment', 'attest_id'])
    .execute();
  await db.schema.dropIndex('geo_attestations_sealed_expiry').execute();
  await db.schema.dropTable('geo_attestations').execute();
}
