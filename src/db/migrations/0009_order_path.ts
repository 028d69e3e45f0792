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
 *   MultiXact per update); the allocations heap keeps room for HOT versions;
 * - `catalog_version`: one row, bumped by triggers in the same transaction as every change
 *   of a table checkout caches reads of (checkout/catalog-cache.ts).
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
  await createCatalogVersion(db);
}

/** The tables whose rows checkout's quote caches, and so bump the catalog version. */
export const CATALOG_TABLES = [
  'products',
  'releases',
  'skus',
  'territory_prices',
  'reference_rates',
  'partner_connections',
  'agreements',
  'shares',
] as const;

/**
 * On PostgreSQL the bump is a deferred constraint trigger: it runs at commit, so a publisher
 * transaction takes the version row's lock last and holds it only through its commit (no
 * lock-order deadlock with anything it locked before), and bumps once however many rows it
 * changed. SQLite's single writer needs neither: a plain row trigger.
 */
// biome-ignore lint/suspicious/noExplicitAny: see up()
async function createCatalogVersion(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('bumped_by', 'bigint')
    .execute();
  await sql`insert into catalog_version (id, version) values (1, 0)`.execute(db);
  if (isPostgres(db)) {
    await sql`create function bump_catalog_version() returns trigger language plpgsql as $$
      begin
        update catalog_version set version = version + 1, bumped_by = txid_current()
        where id = 1 and bumped_by is distinct from txid_current();
        return null;
      end $$`.execute(db);
  }
  for (const table of CATALOG_TABLES) await bumpCatalogVersionOnChangesOf(db, table);
}

/**
 * The trigger that bumps the catalog version with every change of `table` (see above); with
 * `updateOf`, updates bump it only when they set one of those columns.
 */
export async function bumpCatalogVersionOnChangesOf(
  // biome-ignore lint/suspicious/noExplicitAny: see up()
  db: Kysely<any>,
  table: string,
  updateOf?: readonly string[],
): Promise<void> {
  const update = updateOf ? sql`update of ${sql.join(updateOf.map((c) => sql.ref(c)))}` : sql`update`;
  if (isPostgres(db)) {
    await sql`create constraint trigger ${sql.raw(`${table}_catalog_version`)}
      after insert or ${update} or delete on ${sql.table(table)}
      deferrable initially deferred for each row execute function bump_catalog_version()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql`create trigger ${sql.raw(`${table}_catalog_version_${event}`)}
      after ${event === 'update' ? update : sql.raw(event)} on ${sql.table(table)}
      begin update catalog_version set version = version + 1 where id = 1; end`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function dropCatalogVersionTriggerOf(db: Kysely<any>, table: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger ${sql.raw(`${table}_catalog_version`)} on ${sql.table(table)}`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql`drop trigger ${sql.raw(`${table}_catalog_version_${event}`)}`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of CATALOG_TABLES) await dropCatalogVersionTriggerOf(db, table);
  if (isPostgres(db)) await sql`drop function bump_catalog_version()`.execute(db);
  await db.schema.dropTable('catalog_version').execute();
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
