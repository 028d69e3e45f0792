import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The order path at the engine's limit (docs/checkout.md, "Fulfilment: one transaction"):
 * - the claim index sorts by an expression only it provides, so no planner, whatever its
 *   statistics, can claim through the primary key and walk every sold key;
 * - `allocations_seller` leaves out `updated_at`, so the counter update of an order changes no
 *   indexed column (a HOT update on PostgreSQL); `updatedSince` reads filter and sort a
 *   seller's allocations instead;
 * - `promise_version`, bumped under the grant's lock by every new promise (a checkout hold,
 *   an accepted pre-order), lets an order prove with its conditional counter update that
 *   nothing was promised since it read the promises before its transaction;
 * - PostgreSQL: the order's foreign key to its allocation is checked at commit, when the
 *   order already holds the allocation row, so waiting orders never share-lock it (no
 *   MultiXact per update); the allocations heap keeps room for HOT versions.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('game_keys_claim').execute();
  await sql`create index game_keys_claim on game_keys (pool_id, (id || '')) where state = 'available'`.execute(
    db,
  );
  await db.schema.dropIndex('allocations_seller').execute();
  await db.schema
    .createIndex('allocations_seller')
    .on('allocations')
    .columns(['seller_company_id', 'environment', 'id'])
    .execute();
  await db.schema
    .alterTable('allocations')
    .addColumn('promise_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Grants that hold promises already start at version 1: their orders sum the promises.
  await sql`update allocations set promise_version = 1
    where id in (select allocation_id from checkout_holds where status = 'active')
       or id in (select allocation_id from orders where delivery = 'preorder')`.execute(db);
  if (isPostgres(db)) {
    await sql`alter table orders alter constraint orders_allocation_id_fkey deferrable initially deferred`.execute(
      db,
    );
    await sql`alter table allocations set (fillfactor = 50)`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table allocations reset (fillfactor)`.execute(db);
    await sql`alter table orders alter constraint orders_allocation_id_fkey not deferrable`.execute(db);
  }
  await db.schema.alterTable('allocations').dropColumn('promise_version').execute();
  await db.schema.dropIndex('allocations_seller').execute();
  await db.schema
    .createIndex('allocations_seller')
    .on('allocations')
    .columns(['seller_company_id', 'environment', 'updated_at', 'id'])
    .execute();
  await db.schema.dropIndex('game_keys_claim').execute();
  await db.schema
    .createIndex('game_keys_claim')
    .on('game_keys')
    .columns(['pool_id', 'id'])
    .where(sql.ref('state'), '=', sql.lit('available'))
    .execute();
}
