import { type Insertable, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { forUpdateSkipLocked, isPostgres } from '../../db/dialect.js';
import type { GameKeysTable } from './inventory.table.js';

export interface ClaimedKey {
  id: string;
  ciphertext: string;
}

/**
 * The claim order, `id || ''`: the same order as `id` (oldest first), but a sort key that only
 * the partial index game_keys_claim provides. Ordered by `id`, a planner with statistics may
 * walk the primary key instead and filter out every key ever sold (milliseconds per claim
 * after a few thousand sales); this way the primary key cannot serve the query at all.
 */
export const CLAIM_ORDER = sql<string>`(id || '')`;

/**
 * The claim query: the oldest available keys of a pool (index game_keys_claim), skipping locked
 * rows. `state = 'available'` is written into the statement: the partial index's predicate is
 * proven by a constant, not a parameter, so a generic plan (a prepared statement's) uses it too.
 */
export function claimableKeys(ex: Executor, poolId: string, limit: number) {
  return forUpdateSkipLocked(
    ex,
    ex
      .selectFrom('game_keys')
      .select('id')
      .where('pool_id', '=', poolId)
      .where('state', '=', sql.lit('available'))
      .orderBy(CLAIM_ORDER)
      .limit(limit),
  );
}

/**
 * The keys to claim, by id. PostgreSQL: `id = any(array(subquery))`, an init plan and the
 * primary key, whatever the limit. `id in (subquery)` with the limit a parameter has a generic
 * plan (a prepared statement's, once the tables have statistics) that guesses a tenth of the
 * pool for the limit and hashes a sequential scan of every key: 30 ms a claim on 120,000 keys.
 */
export function claimedIds(db: Executor, poolId: string, limit: number) {
  const keys = claimableKeys(db, poolId, limit);
  return isPostgres(db) ? sql<boolean>`id = any(array(${keys}))` : sql<boolean>`id in (${keys})`;
}

const claimOnce = compiledOnce(['orderId', 'soldAt', 'poolId', 'limit'], (db, v) =>
  db
    .updateTable('game_keys')
    .set({ state: 'sold', order_id: v.orderId, sold_at: v.soldAt as never })
    .where(claimedIds(db, v.poolId, v.limit as never))
    .returning(['id', 'ciphertext']),
);

/**
 * SQLite, one key: `id = (subquery)` with the state and the limit written into the statement.
 * `id in (subquery)` is planned as a set collected first, and a bound `state = ?` matches the
 * partial index's `state = 'available'` only through the bound value, which makes SQLite
 * prepare the statement again at every run: 8-12 us a claim against 25-35 us (`= ?`) and
 * 70-95 us (`in`) measured on a pool of 100,000 keys.
 */
const claimOneOnce = compiledOnce(['orderId', 'soldAt', 'poolId'], (db, v) =>
  db
    .updateTable('game_keys')
    .set({ state: 'sold', order_id: v.orderId, sold_at: v.soldAt as never })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('game_keys')
        .select('id')
        .where('pool_id', '=', v.poolId)
        .where('state', '=', sql.lit('available'))
        .orderBy(CLAIM_ORDER)
        .limit(sql.lit(1)),
    )
    .returning(['id', 'ciphertext']),
);

/** Marks up to `limit` available keys of a pool sold to an order, in one statement; returns them. */
export async function claimFromPool(
  ex: Executor,
  poolId: string,
  limit: number,
  orderId: string,
  now: number,
): Promise<ClaimedKey[]> {
  const { rows } =
    limit === 1 && !isPostgres(ex)
      ? await claimOneOnce(ex, { orderId, soldAt: now, poolId })
      : await claimOnce(ex, { orderId, soldAt: now, poolId, limit });
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1));
}

export async function insertSoldKeys(ex: Executor, rows: Insertable<GameKeysTable>[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('game_keys').values(rows).execute();
}

/** The key ids of these orders, by order then id: one read for a page of orders. */
export function keyIdsOfOrders(ex: Executor, orderIds: string[]) {
  return ex
    .selectFrom('game_keys')
    .select(['order_id', 'id'])
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('id')
    .execute();
}

export function keysOfOrder(ex: Executor, orderId: string) {
  return ex
    .selectFrom('game_keys')
    .select(['id', 'ciphertext', 'state'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}
