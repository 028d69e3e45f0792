import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Flat seller reads (docs/seller-reads.md, "Flat at a million"):
 *
 * - indexes for every filter a seller can look up by (order and refund references, the filters
 *   of activity, api-sales and the event feed);
 * - running totals kept by the database in the statement that writes the row: `sale_totals`
 *   per seller, environment, span (month, day, hour), bucket start, sale currency, wholesale
 *   currency and shard; `activity_day_totals` (keys moved per UTC day) and `pool_stock`
 *   (available keys per pool). Triggers on `sale_lines`, `activity_entries` and `game_keys`
 *   are the one place they are maintained, so every writer (the repositories, the order path's
 *   single statement on PostgreSQL, imports, custody) keeps them exact;
 * - no hot row: on PostgreSQL a writer adds to the shard of its own connection
 *   (`pg_backend_pid() % 64`), so two concurrent orders never wait on the same totals row
 *   unless their backends share a shard; SQLite has one writer, so one shard (0);
 * - autovacuum settings for the hot tables on PostgreSQL (docs/operations.md).
 *
 * Existing rows are folded into shard 0 here.
 */

const TOTAL_COLUMNS = [
  'gross',
  'reversed',
  'reinstated',
  'sale_count',
  'reversal_count',
  'reinstatement_count',
  'keys_sold',
  'keys_reversed',
  'wholesale',
] as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const KEY_KINDS = `kind in ('sale', 'pull')`;

/** The amounts one sale line adds, in TOTAL_COLUMNS order, as stored (signed); `p` prefixes columns. */
function rowAmounts(p: string): string[] {
  const original = `${p}entry_type = 'sale' and ${p}reverses_transaction_id is null`;
  const reversal = `${p}entry_type = 'sale_reversal'`;
  const reinstatement = `${p}entry_type = 'sale' and ${p}reverses_transaction_id is not null`;
  const when = (condition: string, value: string) => `case when ${condition} then ${value} else 0 end`;
  return [
    when(original, `${p}sale_price_cents`),
    when(reversal, `${p}sale_price_cents`),
    when(reinstatement, `${p}sale_price_cents`),
    when(original, '1'),
    when(reversal, '1'),
    when(reinstatement, '1'),
    when(original, `${p}quantity`),
    when(reversal, `abs(${p}quantity)`),
    `coalesce(${p}wholesale_cents, 0)`,
  ];
}

type SpanBucket = [string, (at: string) => string];

/** The spans a sale line was first counted in, with the start of its bucket (UTC, epoch ms). */
export const spans = (postgres: boolean): SpanBucket[] => [
  [
    'month',
    (at) =>
      postgres
        ? `(extract(epoch from date_trunc('month', to_timestamp(${at} / 1000) at time zone 'UTC')) * 1000)::bigint`
        : `cast(strftime('%s', ${at} / 1000, 'unixepoch', 'start of month') as integer) * 1000`,
  ],
  ['day', (at) => `(${at} / ${DAY_MS}) * ${DAY_MS}`],
  ['hour', (at) => `(${at} / ${HOUR_MS}) * ${HOUR_MS}`],
];

/** The totals rows of the sale lines of `source` (a table), in key order (the lock order). */
export function saleTotalsOf(source: string, shard: string, counted: SpanBucket[]): string {
  const sums = rowAmounts('').map((a) => `sum(${a})`);
  const selects = counted.map(([span, bucket]) => {
    const key = `seller_company_id, environment, ${bucket('created_at')}, currency_code, coalesce(wholesale_currency_code, '')`;
    return `select seller_company_id, environment, '${span}', ${bucket('created_at')}, currency_code,
      coalesce(wholesale_currency_code, ''), ${shard}, ${sums.join(', ')} from ${source} group by ${key}`;
  });
  return `select * from (${selects.join(' union all ')}) t order by 1, 2, 3, 4, 5, 6`;
}

/** SQLite trigger: the totals rows of the inserted line, one per span. */
export const saleTotalsOfNewRow = (counted: SpanBucket[]) =>
  `select * from (${counted
    .map(
      ([
        span,
        bucket,
      ]) => `select NEW.seller_company_id, NEW.environment, '${span}', ${bucket('NEW.created_at')},
      NEW.currency_code, coalesce(NEW.wholesale_currency_code, ''), 0, ${rowAmounts('NEW.').join(', ')}`,
    )
    .join(' union all ')}) where true`;

const SALE_TOTALS_KEY = `seller_company_id, environment, span, bucket_start, currency_code, wholesale_currency_code, shard`;
const addTotals = `on conflict (${SALE_TOTALS_KEY}) do update set ${TOTAL_COLUMNS.map(
  (c) => `${c} = sale_totals.${c} + excluded.${c}`,
).join(', ')}`;
export const insertTotals = (select: string) =>
  `insert into sale_totals (${SALE_TOTALS_KEY}, ${TOTAL_COLUMNS.join(', ')}) ${select} ${addTotals}`;

const activityTotalsSelect = (source: string, shard: string) =>
  `select seller_company_id, environment, created_at / ${DAY_MS} as day, ${shard} as shard, sum(quantity) as keys
    from ${source} where ${KEY_KINDS}
    group by seller_company_id, environment, created_at / ${DAY_MS}
    order by seller_company_id, environment, created_at / ${DAY_MS}`;
const insertActivityTotals = (select: string) =>
  `insert into activity_day_totals (seller_company_id, environment, day, shard, keys) ${select}
    on conflict (seller_company_id, environment, day, shard) do update set keys = activity_day_totals.keys + excluded.keys`;

const insertStock = (select: string) =>
  `insert into pool_stock (pool_id, shard, available) ${select}
    on conflict (pool_id, shard) do update set available = pool_stock.available + excluded.available`;

/** The totals row a PostgreSQL writer adds to: one per connection, so writers rarely share a row. */
export const PG_SHARD = 'pg_backend_pid() % 64';

/** PostgreSQL: one statement-level trigger per table and event, reading the transition table. */
async function postgresTriggers(db: Kysely<unknown>) {
  const shard = PG_SHARD;
  const fn = async (name: string, body: string) =>
    sql
      .raw(`create function ${name}() returns trigger language plpgsql as $body$
        begin ${body}; return null; end $body$`)
      .execute(db);
  const trigger = async (name: string, event: string, table: string, transition: string) =>
    sql
      .raw(`create trigger ${name} after ${event} on ${table} referencing ${transition}
        for each statement execute function ${name}()`)
      .execute(db);

  await fn('sale_lines_totals', insertTotals(saleTotalsOf('new_rows', shard, spans(true))));
  await trigger('sale_lines_totals', 'insert', 'sale_lines', 'new table as new_rows');
  await fn('activity_entries_totals', insertActivityTotals(activityTotalsSelect('new_rows', shard)));
  await trigger('activity_entries_totals', 'insert', 'activity_entries', 'new table as new_rows');

  const stock = (rows: string) =>
    insertStock(
      `select pool_id, ${shard}, sum(d) from (${rows}) m group by pool_id having sum(d) <> 0 order by pool_id`,
    );
  await fn('game_keys_stock_insert', stock(`select pool_id, 1 as d from new_rows where state = 'available'`));
  await trigger('game_keys_stock_insert', 'insert', 'game_keys', 'new table as new_rows');
  await fn(
    'game_keys_stock_update',
    stock(`select pool_id, -1 as d from old_rows where state = 'available'
      union all select pool_id, 1 from new_rows where state = 'available'`),
  );
  await trigger(
    'game_keys_stock_update',
    'update',
    'game_keys',
    'old table as old_rows new table as new_rows',
  );
  await fn(
    'game_keys_stock_delete',
    stock(`select pool_id, -1 as d from old_rows where state = 'available'`),
  );
  await trigger('game_keys_stock_delete', 'delete', 'game_keys', 'old table as old_rows');
}

/** SQLite: row triggers (one writer, one shard). */
async function sqliteTriggers(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(
    `create trigger sale_lines_totals after insert on sale_lines begin ${insertTotals(saleTotalsOfNewRow(spans(false)))}; end`,
  );
  await run(`create trigger activity_entries_totals after insert on activity_entries when NEW.${KEY_KINDS} begin
    ${insertActivityTotals(`select NEW.seller_company_id, NEW.environment, NEW.created_at / ${DAY_MS}, 0, NEW.quantity where true`)}; end`);
  const one = (pool: string, delta: string) => insertStock(`select ${pool}, 0, ${delta} where true`);
  await run(`create trigger game_keys_stock_insert after insert on game_keys when NEW.state = 'available' begin
    ${one('NEW.pool_id', '1')}; end`);
  await run(`create trigger game_keys_stock_update after update of state, pool_id on game_keys
    when (OLD.state = 'available') <> (NEW.state = 'available') or (NEW.state = 'available' and OLD.pool_id <> NEW.pool_id) begin
    ${one('OLD.pool_id', "-(OLD.state = 'available')")};
    ${one('NEW.pool_id', "(NEW.state = 'available')")}; end`);
  await run(`create trigger game_keys_stock_delete after delete on game_keys when OLD.state = 'available' begin
    ${one('OLD.pool_id', '-1')}; end`);
}

/** Hot tables on PostgreSQL: vacuum and analyse after a fixed share of churn, not 20% of a large table. */
export const AUTOVACUUM: Record<string, string> = {
  game_keys:
    'autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 0',
  outbox_events:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_insert_scale_factor = 0.0, autovacuum_vacuum_insert_threshold = 20000, autovacuum_vacuum_cost_delay = 0',
  idempotency_records:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_cost_delay = 0',
  reservation_slots:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0',
  sale_totals:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 2000, autovacuum_vacuum_cost_delay = 0',
  activity_day_totals:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0',
  pool_stock:
    'autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0',
};

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const index = (name: string, table: string, columns: string, where = '') =>
    sql.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`).execute(db);

  // Lookups by reference and the list filters (the plans: src/db/plans/).
  await index(
    'orders_seller_reference',
    'orders',
    'seller_company_id, environment, order_reference, created_at, id',
  );
  await index(
    'sale_lines_seller_reference',
    'sale_lines',
    'seller_company_id, environment, order_reference, created_at, id',
  );
  // Reversals are the rare entry type: a seller's sales are served by sale_lines_seller_created.
  await index(
    'sale_lines_seller_reversals',
    'sale_lines',
    'seller_company_id, environment, created_at, id',
    "entry_type = 'sale_reversal'",
  );
  await index(
    'activity_seller_reference',
    'activity_entries',
    'seller_company_id, environment, order_reference, created_at, id',
  );
  await index(
    'activity_seller_kind',
    'activity_entries',
    'seller_company_id, environment, kind, created_at, id',
  );
  await index(
    'activity_seller_counterparty',
    'activity_entries',
    'seller_company_id, environment, counterparty_company_id, created_at, id',
  );
  await index(
    'activity_seller_promo',
    'activity_entries',
    'seller_company_id, environment, promo_id, created_at, id',
    'promo_id is not null',
  );
  await index(
    'outbox_events_feed_type',
    'outbox_events',
    'company_id, environment, event_type, published_seq',
    'published_seq is not null',
  );

  const big = postgres ? 'bigint' : 'integer';
  await sql
    .raw(`create table sale_totals (
      seller_company_id text not null, environment text not null, span text not null,
      bucket_start bigint not null, currency_code text not null, wholesale_currency_code text not null,
      shard integer not null,
      ${TOTAL_COLUMNS.map((c) => `${c} ${big} not null`).join(', ')},
      primary key (${SALE_TOTALS_KEY}))`)
    .execute(db);
  await sql
    .raw(`create table activity_day_totals (
      seller_company_id text not null, environment text not null, day integer not null, shard integer not null,
      keys ${big} not null, primary key (seller_company_id, environment, day, shard))`)
    .execute(db);
  await sql
    .raw(`create table pool_stock (pool_id text not null, shard integer not null, available ${big} not null,
      primary key (pool_id, shard))`)
    .execute(db);

  // Backfill, then keep.
  await sql.raw(insertTotals(saleTotalsOf('sale_lines', '0', spans(postgres)))).execute(db);
  await sql.raw(insertActivityTotals(activityTotalsSelect('activity_entries', '0'))).execute(db);
  await sql
    .raw(insertStock(`select pool_id, 0, count(*) from game_keys where state = 'available' group by pool_id`))
    .execute(db);

  if (postgres) {
    await postgresTriggers(db);
    for (const [table, settings] of Object.entries(AUTOVACUUM)) {
      await sql.raw(`alter table ${table} set (${settings})`).execute(db);
    }
  } else {
    await sqliteTriggers(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [table, name] of [
    ['sale_lines', 'sale_lines_totals'],
    ['activity_entries', 'activity_entries_totals'],
    ['game_keys', 'game_keys_stock_insert'],
    ['game_keys', 'game_keys_stock_update'],
    ['game_keys', 'game_keys_stock_delete'],
  ]) {
    await sql.raw(postgres ? `drop trigger ${name} on ${table}` : `drop trigger ${name}`).execute(db);
    if (postgres) await sql.raw(`drop function ${name}()`).execute(db);
  }
  if (postgres) {
    for (const [table, settings] of Object.entries(AUTOVACUUM)) {
      if (!['sale_totals', 'activity_day_totals', 'pool_stock'].includes(table)) {
        const names = settings.split(',').map((s) => s.split('=')[0]!.trim());
        await sql.raw(`alter table ${table} reset (${names.join(', ')})`).execute(db);
      }
    }
  }
  for (const table of ['pool_stock', 'activity_day_totals', 'sale_totals'])
    await db.schema.dropTable(table).execute();
  for (const name of [
    'outbox_events_feed_type',
    'activity_seller_promo',
    'activity_seller_counterparty',
    'activity_seller_kind',
    'activity_seller_reference',
    'sale_lines_seller_reversals',
    'sale_lines_seller_reference',
    'orders_seller_reference',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
