// The raw baselines of POST /orders/reserve (issue 16): the minimal durable work of one
// reservation on one hot SKU, through the drivers alone (no HTTP, no rules, no query builder),
// on the project's migrated schema: an admission counter plus one durable reservation row.
import SqliteDatabase from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { uuidv7 } from '../src/lib/ids.js';
import { type PgTarget, rawPgLoop } from './baselines.js';
import type { CheckoutWorld } from './checkout-world.js';

const SLOTS = 32;
const INSERT = `insert into reservations (id, seller_company_id, environment, api_key_id, allocation_id,
  sku_code, quantity, order_reference, line, slot, status, extended, expires_at, created_at, updated_at)`;

/** PostgreSQL alone: 32 counter rows per allocation, one picked with SKIP LOCKED, plus the row. */
const PG_RESERVE = `
with s as (
  update reservation_slots set free = free - 1
  where allocation_id = $1 and free >= 1 and slot = (
    select slot from reservation_slots where allocation_id = $1 and free >= 1
    order by (slot + $2) % ${SLOTS} limit 1 for update skip locked)
  returning slot
)
${INSERT}
select $3, $4, 'production', 'raw', $1, $5, 1, $3, '{}', slot, 'live', 0, $6, $7, $7 from s`;

const PG_ROW = `${INSERT} values ($1, $2, 'production', 'raw', $3, $4, 1, $1, '{}', null, 'live', 0, $5, $6, $6)`;

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

export async function rawPostgresReserves(
  target: PgTarget,
  world: CheckoutWorld,
  seconds: number,
  clients: number,
) {
  await seedSlots(target, world);
  return rawPgLoop(target, seconds, clients, async (c, now) => {
    const id = uuidv7(now);
    // Every slot skipped (locked by the other clients at that instant): pick again. Seen to
    // take over 100 picks once, at the first instant of a run, when all 32 clients start together.
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const start = Math.floor(Math.random() * SLOTS);
      const values = [world.allocationId, start, id, world.sellerId, world.skuCode, now + 60_000, now];
      if ((await c.query({ name: 'raw-reserve', text: PG_RESERVE, values })).rowCount === 1) return true;
    }
    return false;
  });
}

/** PostgreSQL with Redis: an atomic Lua admission script plus one durable reservation row. */
export async function rawRedisReserves(
  target: PgTarget,
  redisUrl: string,
  world: CheckoutWorld,
  seconds: number,
  clients: number,
) {
  const redis = new Redis(redisUrl);
  const key = `sdapi:bench-raw:${world.allocationId}`;
  await redis.set(key, 10_000_000);
  try {
    return await rawPgLoop(target, seconds, clients, async (c, now) => {
      if ((await redis.eval(LUA_TAKE, 1, key)) !== 1) return false;
      const id = uuidv7(now);
      const values = [id, world.sellerId, world.allocationId, world.skuCode, now + 60_000, now];
      return (await c.query({ name: 'raw-reserve-row', text: PG_ROW, values })).rowCount === 1;
    });
  } finally {
    await redis.del(key);
    redis.disconnect();
  }
}

/** SQLite: the counter update and the row in one write transaction (one writer: no concurrency). */
export function rawSqliteReserves(path: string, world: CheckoutWorld, seconds: number): number {
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
  const reserve = db.transaction((now: number) => {
    if (counter.run(world.allocationId, 100_000_000).changes !== 1) throw new Error('raw SQLite: no slot');
    const id = uuidv7(now);
    insert.run(id, world.sellerId, world.allocationId, world.skuCode, id, now + 60_000, now, now);
  });
  let done = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    reserve.immediate(Date.now());
    done++;
  }
  const rate = done / ((performance.now() - started) / 1000);
  db.close();
  return Math.round(rate);
}
