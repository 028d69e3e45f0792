import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { bumpCatalogVersionOnChangesOf, dropCatalogVersionTriggerOf } from './0009_order_path.js';

/**
 * The order path, second step (docs/checkout.md):
 * - key pools join the tables that bump the catalog version: checkout reads a SKU's pools
 *   once per version, like the SKU itself, instead of once per order;
 * - PostgreSQL: `sdapi_require(ok, reason)` raises SQLSTATE `SDF01` unless `ok`. The order path's
 * last statement (checkout/fast-commit.pg.ts) calls it when its conditional counter update
 * matched no row: its COMMIT is already queued behind it (db/pipelined-transaction.ts), and only an
 * error turns that COMMIT into a ROLLBACK. SQLite has no such statement and needs nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await bumpCatalogVersionOnChangesOf(db, 'key_pools');
  if (!isPostgres(db)) return;
  await sql`create function sdapi_require(ok boolean, reason text) returns boolean
    language plpgsql as $$
    begin
      if ok is not true then raise exception using errcode = 'SDF01', message = reason; end if;
      return true;
    end $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await dropCatalogVersionTriggerOf(db, 'key_pools');
  if (isPostgres(db)) await sql`drop function if exists sdapi_require(boolean, text)`.execute(db);
}
