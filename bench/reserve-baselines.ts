// The raw baselines of POST /orders/reserve: the minimal durable work of one
// reservation on one hot SKU, through the drivers alone (no HTTP, no rules, no query builder),
// on the project's migrated schema: an admission counter plus one durable reservation row.
//
// Each also runs, for reference, with the contract's other durable writes of a reservation in
// the same transaction (`contractWrites`): the stored reply of its Idempotency-Key (written once,
// reply included, cheaper than any service can, which must claim the key before it knows the reply),
// its `order.reserved` outbox row and the request log's row. That rate over the raw baseline's is the most a service
// keeping the contract could reach before HTTP, auth, JSON and its rules cost anything.
import SqliteDatabase from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { uuidv7 } from '../src/lib/ids.js';
import {
  LOG_COLUMNS,
  type PgTarget,
  type PreparedOperation,
  type RawOperation,
  rawEventId,
  rawPgLoop,
  rawSqliteLoop,
} from './baselines.js';
import type { CheckoutWorld } from './checkout-world.js';

const SLOTS = 32;
const INSERT = `insert into reservations (id, seller_company_id, environment, api_key_id, allocation_id,
  sku_code, quantity, order_reference, line, slot, status, extended, expires_at, created_at, updated_at)`;

/** 32 counter rows per allocation, one picked with SKIP LOCKED (`$1` allocation, `$2` start). */
const PG_TAKE_SLOT = (condition: string) => `
  update reservation_slots set free = free - 1
  where allocation_id = $1 and free >= 1${condition} and slot = (
    select slot from reservation_slots where allocation_id = $1 and free >= 1
    order by (slot + $2) % ${SLOTS} limit 1 for update skip locked)
  returning slot`;
const PG_SLOT_ROW = `${INSERT}
  select $3, $4, 'production', 'raw', $1, $5, 1, $3, '{}', slot, 'live', 0, $6, $7, $7 from s`;

/** PostgreSQL alone: a slot taken, plus the row. */
const PG_RESERVE = `with s as (${PG_TAKE_SLOT('')}) ${PG_SLOT_ROW}`;

/** With Redis: the row alone (the unit was taken there). */
const PG_ROW = `${INSERT} values ($1, $2, 'production', 'raw', $3, $4, 1, $1, '{}', null, 'live', 0, $5, $6, $6)`;

/** The size of a sealed reservation reply: about 300 bytes of JSON, sealed, in base64. */
const SEALED_REPLY = 'r'.repeat(424);
const EVENT_PAYLOAD = JSON.stringify({
  orderReference: 'bench-reserve-000000-000000',
  skuCode: 'BENCH-CHECKOUT-001',
  quantity: 1,
  expectedReleaseAt: null,
});
const RECORD_COLUMNS = `idempotency_records (company_id, environment, idempotency_key, request_hash,
  locked_until, created_at, status_code, response_body, content_type, response_sealed)`;
const OUTBOX_COLUMNS = `outbox_events (event_id, company_id, environment, event_type, event_version,
  payload, created_at_us, deliver_after, target_endpoint_id)`;

/**
 * PostgreSQL: the key's record with its reply (`c`), the reservation only if the key was new,
 * then its event. Parameters after the reservation's own, from `$k`: those of `contractValues`.
 */
function pgContract(reservation: string, k: number) {
  const [company, key, now, reply, eventId, payload] = [0, 1, 2, 3, 4, 5].map((i) => `$${k + i}`);
  return `with c as (
    insert into ${RECORD_COLUMNS}
    values (${company}, 'production', ${key}, ${key}, ${now}, ${now}, 200, ${reply}, 'application/json', 1)
    on conflict do nothing returning 1
  ), ${reservation}, logged as (
    insert into request_log (${LOG_COLUMNS})
    select ${key}, ${company}, 'production', 'raw', 'raw', 'POST', '/orders/reserve',
      '/api/seller/v1/orders/reserve', 200, 1, '2026-09-01', ${now} from r
  )
  insert into ${OUTBOX_COLUMNS}
  select ${eventId}, ${company}, 'production', 'order.reserved', 1, ${payload}, ${now}::bigint * 1000, ${now}, null
  where exists (select 1 from r)`;
}
const contractValues = (world: CheckoutWorld, key: string, now: number) => [
  world.sellerId,
  key,
  now,
  SEALED_REPLY,
  rawEventId(now),
  EVENT_PAYLOAD,
];

const PG_RESERVE_CONTRACT = pgContract(
  `s as (${PG_TAKE_SLOT(' and exists (select 1 from c)')}), r as (${PG_SLOT_ROW} returning id)`,
  8,
);
const PG_ROW_CONTRACT = pgContract(
  `r as (${INSERT} select $1, $2, 'production', 'raw', $3, $4, 1, $1, '{}', null, 'live', 0, $5, $6, $6
    from c returning id)`,
  7,
);

const LUA_TAKE = `
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
if free >= 1 then redis.call('DECRBY', KEYS[1], 1) return 1 end
return 0`;

/** Slot rows of the allocation, each holding plenty. */
async function seedSlots(target: PgTarget, world: CheckoutWorld) {
  const c = new pg.Client({ connectionString: target.url, options: `-c search_path=${target.schema}` });
  await c.connect();
  await c.query('delete from reservation_slots where allocation_id = $1', [world.allocationId]);
  await c.query(
    `insert into reservation_slots (allocation_id, slot, free) select $1, s, 1000000 from generate_series(0, ${SLOTS - 1}) s`,
    [world.allocationId],
  );
  await c.end();
}

/** PostgreSQL alone: the slot rows seeded, then one reservation per call (with the contract's writes or not). */
export async function preparePgReserve(
  target: PgTarget,
  world: CheckoutWorld,
  contractWrites: boolean,
): Promise<PreparedOperation> {
  await seedSlots(target, world);
  const [name, text] = contractWrites
    ? ['raw-reserve-contract', PG_RESERVE_CONTRACT]
    : ['raw-reserve', PG_RESERVE];
  const once: RawOperation = async (c, now) => {
    const id = uuidv7(now);
    // Every slot skipped (locked by the other clients at that instant): pick again. Seen to
    // take over 100 picks once, at the first instant of a run, when all 32 clients start together.
    // With the contract's writes each pick stores a reply under a key of its own.
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const start = Math.floor(Math.random() * SLOTS);
      const values = [world.allocationId, start, id, world.sellerId, world.skuCode, now + 60_000, now];
      if (contractWrites) values.push(...contractValues(world, `${id}:${attempt}`, now));
      if ((await c.query({ name, text, values })).rowCount === 1) return true;
    }
    return false;
  };
  return { once, close: async () => undefined };
}

/** PostgreSQL with Redis: the admission counter set, then per call the Lua script and the row. */
export async function prepareRedisReserve(
  redisUrl: string,
  world: CheckoutWorld,
  contractWrites: boolean,
): Promise<PreparedOperation> {
  const redis = new Redis(redisUrl);
  const key = `sdapi:bench-raw:${world.allocationId}`;
  await redis.set(key, 10_000_000);
  const [name, text] = contractWrites
    ? ['raw-reserve-row-contract', PG_ROW_CONTRACT]
    : ['raw-reserve-row', PG_ROW];
  const once: RawOperation = async (c, now) => {
    if ((await redis.eval(LUA_TAKE, 1, key)) !== 1) return false;
    const id = uuidv7(now);
    const values = [id, world.sellerId, world.allocationId, world.skuCode, now + 60_000, now];
    if (contractWrites) values.push(...contractValues(world, id, now));
    return (await c.query({ name, text, values })).rowCount === 1;
  };
  const close = async () => {
    await redis.del(key);
    redis.disconnect();
  };
  return { once, close };
}

/** Reservations per second of `clients` connections, each looping one prepared reservation. */
export async function rawReserves(
  prepared: PreparedOperation,
  target: PgTarget,
  seconds: number,
  clients: number,
): Promise<number> {
  try {
    return await rawPgLoop(target, seconds, clients, prepared.once);
  } finally {
    await prepared.close();
  }
}

/** SQLite: the counter update and the row in one write transaction (one writer: no concurrency). */
export function rawSqliteReserves(
  path: string,
  world: CheckoutWorld,
  seconds: number,
  contractWrites = false,
): number {
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
  db.prepare(
    'insert or ignore into reservation_pools (allocation_id, carved, uncarved) values (?, 0, 0)',
  ).run(world.allocationId);
  const counter = db.prepare(
    'update reservation_pools set carved = carved + 1 where allocation_id = ? and carved < ?',
  );
  const insert = db.prepare(
    `${INSERT} values (?, ?, 'production', 'raw', ?, ?, 1, ?, '{}', null, 'live', 0, ?, ?, ?)`,
  );
  const record = db.prepare(
    `insert into ${RECORD_COLUMNS} values (?, 'production', ?, ?, ?, ?, 200, ?, 'application/json', 1)
     on conflict do nothing`,
  );
  const event = db.prepare(
    `insert into ${OUTBOX_COLUMNS} values (?, ?, 'production', 'order.reserved', 1, ?, ?, ?, null)`,
  );
  const log = db.prepare(
    `insert into request_log (${LOG_COLUMNS}) values (?, ?, 'production', 'raw', 'raw', 'POST',
      '/orders/reserve', '/api/seller/v1/orders/reserve', 200, 1, '2026-09-01', ?)`,
  );
  const reserve = db.transaction((now: number) => {
    const id = uuidv7(now);
    if (contractWrites && record.run(world.sellerId, id, id, now, now, SEALED_REPLY).changes !== 1)
      throw new Error('raw SQLite: key already stored');
    if (counter.run(world.allocationId, 100_000_000).changes !== 1) throw new Error('raw SQLite: no slot');
    insert.run(id, world.sellerId, world.allocationId, world.skuCode, id, now + 60_000, now, now);
    if (!contractWrites) return;
    event.run(rawEventId(now), world.sellerId, EVENT_PAYLOAD, now * 1000, now);
    log.run(id, world.sellerId, now);
  });
  return rawSqliteLoop(db, seconds, reserve);
}
