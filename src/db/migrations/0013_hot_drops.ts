import type { Kysely } from 'kysely';

/**
 * Hot drops (docs/hot-drops.md): the per-reservation maximum as an allocation term, the
 * reservations themselves, and the admission store on the database: per allocation, the units
 * carved out of its capacity for reservations (`reservation_pools.carved`, promised capacity
 * like a hold) and the free part of them spread over slot rows, so that concurrent reservations
 * on one SKU update different rows (`reservation_slots`). With Redis the free units live there.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('allocations')
    .addColumn('reservation_max_quantity', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();

  // No foreign key to allocations: on PostgreSQL it would share-lock the hot grant row on
  // every reservation insert (docs/checkout.md, "No MultiXact").
  await db.schema
    .createTable('reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seller_company_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('allocation_id', 'text', (c) => c.notNull())
    .addColumn('sku_code', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('extended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reservations_expiry')
    .on('reservations')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('reservations_allocation')
    .on('reservations')
    .columns(['allocation_id', 'status'])
    .execute();

  await db.schema
    .createTable('reservation_pools')
    .addColumn('allocation_id', 'text', (c) => c.primaryKey())
    .addColumn('carved', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('uncarved', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('reservation_slots')
    .addColumn('allocation_id', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('free', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reservation_slots_pk', ['allocation_id', 'slot'])
    .execute();
}
