// The raw baselines of POST /orders: the minimal durable work of one order (claim a key, write
// the order, move the allocation's counter), driven through the driver alone: prepared
// statements, no query builder, no HTTP, no rules. Run on the project's schema (migrated) and a
// world built like the service's, so the same indexes, foreign keys and row shapes apply.
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { readableId, uuidv7 } from '../src/lib/ids.js';
import type { CheckoutWorld } from './checkout-world.js';

/** The orders row of the baselines: every NOT NULL column, nothing the database does not need. */
export const ORDER_COLUMNS = `id, readable_id, seller_company_id, environment, api_key_id, reference_owner,
  order_reference, kind, delivery, sku_id, sku_code, product_id, allocation_id, publisher_company_id,
  quantity, pulled, unit_price_cents, currency_code, country_code, warnings, contract_date,
  revealed_at, created_at, updated_at`;

/** The request log's row of a raw operation: every NOT NULL column. */
export const LOG_COLUMNS = `request_id, company_id, environment, key_id, key_name, method, route, path,
  status, duration_ms, contract_date, at`;

/** An event id as the service makes them (`evt_` and a UUIDv7): the outbox is partitioned by its time. */
export const rawEventId = (now: number) => `evt_${uuidv7(now).replaceAll('-', '')}`;

/**
 * PostgreSQL, one statement per order: claim the oldest available key (through the claim
 * index, SKIP LOCKED), insert the order, then the conditional HOT counter update last, so the
 * allocation row is locked only from the end of the statement to the end of the commit.
 */
const PG_ORDER = `
with claimed as (
  update game_keys set state = 'sold', order_id = $1, sold_at = $2
  where id = (
    select id from game_keys where pool_id = $3 and state = 'available'
    order by (id || '') limit 1 for update skip locked)
  returning id
), placed as (
  insert into orders (${ORDER_COLUMNS})
  select $1, $4, $5, 'production', 'raw', $5, $4, 'order', 'keys', $6, $7, 'raw', $8, $9,
    1, 1, 1999, 'USD', 'US', '[]', '2026-09-01', $2, $2, $2
  from claimed
  returning id
)
update allocations set quantity_pulled = quantity_pulled + 1
where id = $8 and status = 'active' and quantity_limit - quantity_pulled >= 1
  and exists (select 1 from placed)
returning quantity_pulled`;

/** One raw operation through connection `c` at instant `now`; answers whether it did its work. */
export type RawOperation = (c: pg.PoolClient, now: number) => Promise<boolean>;

/** A raw operation ready to loop, with what undoes its preparation. */
export interface PreparedOperation {
  once: RawOperation;
  /** Undoes what preparing set up outside the database (the Redis counter). */
  close(): Promise<void>;
}

export interface PgTarget {
  url: string;
  schema: string;
}

/**
 * Operations per second of `clients` raw connections, each running `once` in a loop for
 * `seconds` (`once` answers whether the operation did its work; a miss ends the run loudly).
 */
export async function rawPgLoop(
  target: PgTarget,
  seconds: number,
  clients: number,
  once: RawOperation,
): Promise<number> {
  const pool = new pg.Pool({
    connectionString: target.url,
    max: clients,
    options: `-c search_path=${target.schema}`,
  });
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    const c = await pool.connect();
    try {
      while (performance.now() < until) {
        if (!(await once(c, Date.now()))) throw new Error('a raw baseline operation did nothing');
        done++;
      }
    } finally {
      c.release();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const rate = done / ((performance.now() - started) / 1000);
  await pool.end();
  return Math.round(rate);
}

/** Orders per second of `clients` concurrent connections each looping PG_ORDER for `seconds`. */
export function rawPostgresOrders(
  connection: PgTarget,
  world: CheckoutWorld,
  seconds: number,
  clients: number,
): Promise<number> {
  return rawPgLoop(connection, seconds, clients, async (c, now) => {
    const result = await c.query({
      name: 'raw-order',
      text: PG_ORDER,
      values: [
        uuidv7(now),
        now,
        world.poolId,
        readableId('ord'),
        world.sellerId,
        world.skuId,
        world.skuCode,
        world.allocationId,
        world.publisherId,
      ],
    });
    return result.rowCount === 1;
  });
}

/** A raw SQLite connection at the project's pragmas (WAL, `synchronous = NORMAL`, foreign keys on). */
export function openRawSqlite(path: string): SqliteDatabase.Database {
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
  return db;
}

/**
 * The minimal order's claim of the oldest available key and its order insert (`placeOrder`, the
 * world's seller, SKU and grant), prepared on `db`.
 */
export function claimAndOrderStatements(db: SqliteDatabase.Database, world: CheckoutWorld) {
  const order = db.prepare(
    `insert into orders (${ORDER_COLUMNS}) values (?, ?, ?, 'production', 'raw', ?, ?, 'order', 'keys',
      ?, ?, 'raw', ?, ?, 1, 1, 1999, 'USD', 'US', '[]', '2026-09-01', ?, ?, ?)`,
  );
  return {
    claim: db.prepare(
      `update game_keys set state = 'sold', order_id = ?, sold_at = ?
     where id = (select id from game_keys where pool_id = ? and state = 'available'
                 order by (id || '') limit 1)
     returning id, ciphertext`,
    ),
    placeOrder: (id: string, reference: string, now: number) =>
      order.run(
        id,
        reference,
        world.sellerId,
        world.sellerId,
        reference,
        world.skuId,
        world.skuCode,
        world.allocationId,
        world.publisherId,
        now,
        now,
        now,
      ),
  };
}

/**
 * Operations per second of `once` (one `IMMEDIATE` write transaction) looped for `seconds` on
 * one connection, which it closes: SQLite has one writer, so concurrency adds nothing.
 */
export function rawSqliteLoop(
  db: SqliteDatabase.Database,
  seconds: number,
  once: { immediate(now: number): void },
): number {
  let done = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    once.immediate(Date.now());
    done++;
  }
  const rate = done / ((performance.now() - started) / 1000);
  db.close();
  return Math.round(rate);
}

/**
 * SQLite, three prepared statements per order in one write transaction, at the project's
 * pragmas: the conditional counter update, the claim, the order.
 */
export function rawSqliteOrders(path: string, world: CheckoutWorld, seconds: number): number {
  const db = openRawSqlite(path);
  const counter = db.prepare(
    `update allocations set quantity_pulled = quantity_pulled + 1
     where id = ? and status = 'active' and quantity_limit - quantity_pulled >= 1`,
  );
  const { claim, placeOrder } = claimAndOrderStatements(db, world);
  const order = db.transaction((now: number) => {
    if (counter.run(world.allocationId).changes !== 1) throw new Error('raw SQLite order: no headroom');
    const id = uuidv7(now);
    if (!claim.get(id, now, world.poolId)) throw new Error('raw SQLite order claimed nothing');
    placeOrder(id, readableId('ord'), now);
  });
  return rawSqliteLoop(db, seconds, order);
}
