import type { Kysely } from 'kysely';

/** Refund and chargeback adjustments, and one row per key a refund, chargeback or return touched. */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('reference_owner', 'text', (c) => c.notNull())
    .addColumn('adjustment_type', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('key_set_digest', 'text', (c) => c.notNull())
    .addColumn('key_ids', 'text', (c) => c.notNull())
    .addColumn('order_references', 'text', (c) => c.notNull())
    .addColumn('amounts', 'text', (c) => c.notNull())
    .addColumn('reversal_ids', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('reinstated_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A reference names one adjustment: a concurrent duplicate waits on this index, then replays.
  await db.schema
    .createIndex('refunds_reference')
    .on('refunds')
    .columns(['environment', 'reference_owner', 'adjustment_type', 'reference'])
    .unique()
    .execute();
  await db.schema
    .createIndex('refunds_owner_created')
    .on('refunds')
    .columns(['seller_company_id', 'environment', 'reference_owner', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('refund_keys')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('key_id', 'text', (c) => c.notNull().references('game_keys.id'))
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('publisher_company_id', 'text', (c) => c.notNull())
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('refund_id', 'text', (c) => c.references('refunds.id'))
    .addColumn('return_id', 'text')
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('reinstated_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // A key of a sale is reversed, charged back or returned once: the database says so too.
    .addPrimaryKeyConstraint('refund_keys_pk', ['order_id', 'key_id'])
    .execute();
  await db.schema.createIndex('refund_keys_refund').on('refund_keys').column('refund_id').execute();
  await db.schema
    .createIndex('refund_keys_quarantine')
    .on('refund_keys')
    .columns(['publisher_company_id', 'outcome', 'created_at', 'key_id'])
    .execute();
  await db.schema
    .createIndex('refund_keys_seller_reference')
    .on('refund_keys')
    .columns(['seller_company_id', 'environment', 'order_reference'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('refund_keys').execute();
  await db.schema.dropTable('refunds').execute();
}
