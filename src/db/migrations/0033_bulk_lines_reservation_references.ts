import type { Kysely } from 'kysely';

/**
 * Two console needs.
 *
 * `orders.bulk_line` is 1 on an order written as a line of `POST /orders/bulk`, 0 otherwise; it
 * is set in the order's own insert, so the single-order path runs no extra statement. Orders
 * written before this migration cannot be told apart (nothing stored says which request wrote
 * them), so they keep 0 and count as single orders.
 *
 * `reservations_seller_reference` serves the reservation lookups by order reference (the
 * console's order search and order page, and its reservation-commit kind filter), which
 * scanned the table before: one seek, newest first.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('bulk_line', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('reservations_seller_reference')
    .on('reservations')
    .columns(['seller_company_id', 'environment', 'order_reference', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reservations_seller_reference').execute();
  await db.schema.alterTable('orders').dropColumn('bulk_line').execute();
}
