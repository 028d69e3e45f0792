import { type Kysely, sql } from 'kysely';

/**
 * `orders.reservation_id`: the hot-drop reservation an order committed (`POST /orders/commit`),
 * null for every other order. It is written in the order's own insert (both engines' order
 * paths, PostgreSQL's one statement included), so a commit runs no extra statement. It is the
 * one record of the link: the console's kind filter and order page read it, where before they
 * matched reservations on the order's reference, which a sibling key's commit (sandbox), a
 * reference given up by a full refund and reused, or an expired reservation's reused reference
 * all misread. Reservations keep no order id: the order is the row that names its source, as it
 * names its hold.
 *
 * Orders written before this migration are linked where the match is unambiguous: a consumed
 * reservation and a single order of the same company, environment, reference, SKU, grant and
 * quantity, written at the instant the reservation was consumed (a commit consumes its
 * reservation with the order's own timestamp), each the other's only match. Any other order
 * stays unlinked and counts as a plain order.
 *
 * `orders_seller_reservation_commits` (partial: commits only) serves the console's
 * `kind=reservation` search, newest first, without reading the tenant's other orders.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('reservation_id', 'text').execute();
  await sql`with pairs as (
      select o.id as order_id, r.id as reservation_id
      from reservations r
      join orders o on o.seller_company_id = r.seller_company_id and o.environment = r.environment
        and o.order_reference = r.order_reference
      where r.status = 'consumed' and o.kind = 'order' and o.bulk_line = 0
        and o.sku_code = r.sku_code and o.allocation_id = r.allocation_id
        and o.quantity = r.quantity and o.created_at = r.updated_at
    ), linked as (
      select order_id, reservation_id from pairs
      where order_id in (select order_id from pairs group by order_id having count(*) = 1)
        and reservation_id in (select reservation_id from pairs group by reservation_id having count(*) = 1)
    )
    update orders set reservation_id = (select linked.reservation_id from linked where linked.order_id = orders.id)
    where id in (select order_id from linked)`.execute(db);
  await db.schema
    .createIndex('orders_seller_reservation_commits')
    .on('orders')
    .columns(['seller_company_id', 'environment', 'created_at', 'id'])
    .where(sql.ref('reservation_id'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_seller_reservation_commits').execute();
  await db.schema.alterTable('orders').dropColumn('reservation_id').execute();
}
