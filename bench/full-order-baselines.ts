// The raw baselines of POST /orders with an Idempotency-Key, with every durable write the
// contract asks of such an order: the minimal order (bench/baselines.ts: claim a key, write the
// order, move the grant's counter) plus its sale line and activity entry (whose triggers keep
// the finance totals), its two events in the outbox (`order.fulfilled`, `allocation.updated`),
// the Idempotency-Key's record holding the reply, and the request log's row. Driven through the
// driver alone, as the minimal one is: prepared statements, no query builder, no HTTP, no rules.
import type pg from 'pg';
import { readableId, uuidv7 } from '../src/lib/ids.js';
import {
  claimAndOrderStatements,
  LOG_COLUMNS,
  ORDER_COLUMNS,
  openRawSqlite,
  type PgTarget,
  rawEventId,
  rawPgLoop,
  rawSqliteLoop,
} from './baselines.js';
import type { CheckoutWorld } from './checkout-world.js';

const SALE_COLUMNS = `id, seller_company_id, environment, order_id, order_reference, entry_type,
  publisher_company_id, sku_id, sku_code, quantity, unit_price_cents, sale_price_cents,
  initial_sale_price_cents, currency_code, tax_metadata, customer_region_code, country_mismatch,
  warnings, created_at`;
const ACTIVITY_COLUMNS = `id, seller_company_id, environment, kind, sign, order_id, order_reference,
  counterparty_company_id, sku_code, quantity, buyer_country, economics, created_at`;
const EVENT_COLUMNS = `event_id, company_id, environment, event_type, event_version, payload,
  created_at_us, deliver_after`;
const REPLY_COLUMNS = `company_id, environment, idempotency_key, request_hash, status_code,
  response_body, content_type, locked_until, created_at`;

const TAX = '{"taxIncluded":false,"taxRateBasisPoints":0}';
const ECONOMICS = '{"unitPriceCents":1999,"currencyCode":"USD"}';

/** The values of one order that both engines' statements take, named. */
function orderValues(world: CheckoutWorld, now: number) {
  const id = uuidv7(now);
  const reference = readableId('ord');
  return {
    id,
    reference,
    saleId: uuidv7(now),
    activityId: uuidv7(now),
    orderEvent: rawEventId(now),
    grantEvent: rawEventId(now),
    orderPayload: JSON.stringify({
      orderId: id,
      orderReference: reference,
      skuCode: world.skuCode,
      quantity: 1,
      unitPriceCents: 1999,
      currencyCode: 'USD',
      fulfilledAt: new Date(now).toISOString(),
    }),
    grantPayload: JSON.stringify({ allocationId: world.allocationId, skuCode: world.skuCode, pulled: 1 }),
  };
}

/**
 * PostgreSQL, one statement per order, its writes in the service's order: the order, the key,
 * the sale line and activity entry, then the grant's conditional counter update (locked from
 * there to the commit), the events, the reply under its key and the log row.
 */
const PG_FULL_ORDER = `
with placed as (
  insert into orders (${ORDER_COLUMNS})
  values ($1, $2, $3, 'production', 'raw', $3, $2, 'order', 'keys', $4, $5, 'raw', $6, $7,
    1, 1, 1999, 'USD', 'US', '[]', '2026-09-01', $8, $8, $8)
  returning id
), claimed as (
  update game_keys set state = 'sold', order_id = $1, sold_at = $8
  where exists (select 1 from placed) and id = (
    select id from game_keys where pool_id = $9 and state = 'available'
    order by (id || '') limit 1 for update skip locked)
  returning id, ciphertext
), sale as (
  insert into sale_lines (${SALE_COLUMNS})
  select $10, $3, 'production', $1, $2, 'sale', $7, $4, $5, 1, 1999, 1999, 1999, 'USD', '${TAX}',
    'US', 0, '[]', $8 from claimed
  returning id
), activity as (
  insert into activity_entries (${ACTIVITY_COLUMNS})
  select $11, $3, 'production', 'sale', 1, $1, $2, $7, $5, 1, 'US', '${ECONOMICS}', $8 from claimed
  returning id
), upd as (
  update allocations set quantity_pulled = quantity_pulled + 1, updated_at = $8
  where id = $6 and status = 'active' and quantity_limit - quantity_pulled >= 1
    and exists (select 1 from sale) and exists (select 1 from activity)
  returning id
), events as (
  insert into outbox_events (${EVENT_COLUMNS})
  select e.id, $3, 'production', e.type, 1, e.payload, $8 * 1000, 0
  from upd, (values ($12, 'order.fulfilled', $13), ($14, 'allocation.updated', $15)) as e(id, type, payload)
  returning event_id
), reply as (
  insert into idempotency_records (${REPLY_COLUMNS})
  select $3, 'production', $1, 'raw', 200,
    (select json_agg(json_build_object('id', id, 'ciphertext', ciphertext))::text from claimed),
    'application/json', $8, $8
  from upd
  returning 1
), logged as (
  insert into request_log (${LOG_COLUMNS})
  select $1, $3, 'production', 'raw', 'raw', 'POST', '/orders', '/api/seller/v1/orders', 200, 1, '2026-09-01', $8
  from upd
  returning 1
)
select (select count(*) from events) + (select count(*) from reply) + (select count(*) from logged) as written`;

/** One full order on PostgreSQL through connection `c` (PG_FULL_ORDER); answers whether all four writes landed. */
export async function pgFullOrder(c: pg.PoolClient, world: CheckoutWorld, now: number): Promise<boolean> {
  const v = orderValues(world, now);
  const result = await c.query({
    name: 'raw-full-order',
    text: PG_FULL_ORDER,
    values: [
      v.id,
      v.reference,
      world.sellerId,
      world.skuId,
      world.skuCode,
      world.allocationId,
      world.publisherId,
      now,
      world.poolId,
      v.saleId,
      v.activityId,
      v.orderEvent,
      v.orderPayload,
      v.grantEvent,
      v.grantPayload,
    ],
  });
  return Number(result.rows[0]?.written) === 4;
}

/** Orders per second of `clients` connections each looping PG_FULL_ORDER for `seconds`. */
export function rawPostgresFullOrders(
  connection: PgTarget,
  world: CheckoutWorld,
  seconds: number,
  clients: number,
): Promise<number> {
  return rawPgLoop(connection, seconds, clients, (c, now) => pgFullOrder(c, world, now));
}

/**
 * SQLite, nine prepared statements per order in one write transaction, at the project's
 * pragmas: the minimal order's three, then the sale line, the activity entry, the two events,
 * the reply under its key and the log row. One connection: SQLite has one writer.
 */
export function rawSqliteFullOrders(path: string, world: CheckoutWorld, seconds: number): number {
  const db = openRawSqlite(path);
  const counter = db.prepare(
    `update allocations set quantity_pulled = quantity_pulled + 1, updated_at = ?
     where id = ? and status = 'active' and quantity_limit - quantity_pulled >= 1`,
  );
  const { claim, placeOrder } = claimAndOrderStatements(db, world);
  const sale = db.prepare(
    `insert into sale_lines (${SALE_COLUMNS}) values (?, ?, 'production', ?, ?, 'sale', ?, ?, ?, 1,
      1999, 1999, 1999, 'USD', '${TAX}', 'US', 0, '[]', ?)`,
  );
  const activity = db.prepare(
    `insert into activity_entries (${ACTIVITY_COLUMNS}) values (?, ?, 'production', 'sale', 1, ?, ?, ?,
      ?, 1, 'US', '${ECONOMICS}', ?)`,
  );
  const event = db.prepare(
    `insert into outbox_events (${EVENT_COLUMNS}) values (?, ?, 'production', ?, 1, ?, ?, 0)`,
  );
  const reply = db.prepare(
    `insert into idempotency_records (${REPLY_COLUMNS}) values (?, 'production', ?, 'raw', 200, ?,
      'application/json', ?, ?)`,
  );
  const log = db.prepare(
    `insert into request_log (${LOG_COLUMNS}) values (?, ?, 'production', 'raw', 'raw', 'POST', '/orders',
      '/api/seller/v1/orders', 200, 1, '2026-09-01', ?)`,
  );
  const place = db.transaction((now: number) => {
    if (counter.run(now, world.allocationId).changes !== 1) throw new Error('raw SQLite order: no headroom');
    const v = orderValues(world, now);
    const key = claim.get(v.id, now, world.poolId);
    if (!key) throw new Error('raw SQLite order claimed nothing');
    const s = world.sellerId;
    placeOrder(v.id, v.reference, now);
    sale.run(v.saleId, s, v.id, v.reference, world.publisherId, world.skuId, world.skuCode, now);
    activity.run(v.activityId, s, v.id, v.reference, world.publisherId, world.skuCode, now);
    event.run(v.orderEvent, s, 'order.fulfilled', v.orderPayload, now * 1000);
    event.run(v.grantEvent, s, 'allocation.updated', v.grantPayload, now * 1000);
    reply.run(s, v.id, JSON.stringify([key]), now, now);
    log.run(v.id, s, now);
  });
  return rawSqliteLoop(db, seconds, place);
}
