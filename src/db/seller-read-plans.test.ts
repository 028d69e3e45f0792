import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresQueryCompiler,
  CompiledQuery as Query,
  SqliteAdapter,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, useTestApp } from '../../test/harness.js';
import {
  findByReference as findRefundByReference,
  listRefunds,
} from '../modules/after-sale/after-sale.repo.js';
import { promisedOn } from '../modules/checkout/line/promised-capacity.repo.js';
import {
  findByReference as findOrderByReference,
  listOrders,
} from '../modules/checkout/orders/orders.repo.js';
import {
  reservationOfOrder,
  reservationsUnderReference,
} from '../modules/checkout/reservations/reservations.repo.js';
import {
  keysReplacedPerOrder,
  keysTakenBackPerOrder,
  soldKeysByFingerprint,
} from '../modules/console/console-orders.repo.js';
import { listActivity } from '../modules/finance/activity.repo.js';
import { keptSaleTotals, keysPerDay } from '../modules/finance/kept-totals.repo.js';
import { listSaleLines, saleTotals } from '../modules/finance/sales-read.repo.js';
import { keyIdsOfOrders } from '../modules/inventory/claims.repo.js';
import { availableInPools } from '../modules/inventory/inventory.repo.js';
import { feedPage } from '../modules/webhooks/events-feed.repo.js';
import { lastPublication } from '../modules/webhooks/publication.repo.js';
import type { Database } from './database.js';

/**
 * Every seller read must seek its index, never scan its table: a tenant with a million rows
 * pays for the rows it reads, not the rows it has. Each read below is compiled by the real
 * repository code (a recording driver catches its SQL), then explained on this engine. On
 * PostgreSQL sequential scans are priced out (`enable_seqscan = off`) so that an empty test
 * table cannot make a scan look cheap: one remains only where no index can serve. PostgreSQL
 * explains the generic plan (a prepared statement under `plan_cache_mode =
 * force_generic_plan`), the plan the pool runs: a value bound as a parameter is unknown to it,
 * so a partial index serves only a read whose SQL names the index's condition as a literal.
 * `WRITE_PLANS=1` writes the plans to src/db/plans/<engine>.md (committed beside the reads).
 */

const t = useTestApp();
const postgres = ENGINE === 'postgres';

/** A Kysely that compiles for this engine and records each query instead of running it. */
function recorder() {
  const queries: CompiledQuery[] = [];
  const connection: DatabaseConnection = {
    executeQuery: async (query) => {
      queries.push(query);
      return { rows: [] };
    },
    streamQuery: () => {
      throw new Error('not streamed');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => driver,
      createIntrospector: () => {
        throw new Error('no introspection');
      },
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
  });
  return { db, queries };
}

const pk = (table: string) => (postgres ? `${table}_pkey` : `sqlite_autoindex_${table}_1`);
const S = { sellerId: 'co-seller', environment: 'production' };
/** GET /events' first page of 50 (one more is read, to know whether another page follows). */
const feed = (db: Kysely<Database>, types?: string[]) =>
  feedPage(
    db,
    { companyId: S.sellerId, environment: 'production' },
    { limit: 51, ...(types ? { types } : {}) },
  );

interface SellerRead {
  name: string;
  run: (db: Kysely<Database>) => Promise<unknown>;
  /** The index the read must seek, and a column its seek condition must name. */
  index: string;
  seeks: string;
}

const READS: SellerRead[] = [
  {
    name: 'GET /orders?orderReference=',
    run: (db) => listOrders(db, { ...S, orderReference: 'ref-1', limit: 50 }),
    index: 'orders_seller_reference',
    seeks: 'order_reference',
  },
  {
    name: 'GET /orders',
    run: (db) => listOrders(db, { ...S, limit: 50 }),
    index: 'orders_seller_created',
    seeks: 'environment',
  },
  {
    name: 'POST /orders replay (reference per owner)',
    run: (db) => findOrderByReference(db, 'production', S.sellerId, 'ref-1'),
    index: 'orders_reference',
    seeks: 'order_reference',
  },
  {
    name: 'console GET /orders?kind=reservation (orders that name the reservation they committed)',
    run: (db) => listOrders(db, { ...S, origin: 'reservation', limit: 50 }),
    index: 'orders_seller_reservation_commits',
    seeks: 'environment',
  },
  {
    name: 'console order page (the reservation the order committed)',
    run: (db) =>
      reservationOfOrder(db, {
        seller_company_id: S.sellerId,
        environment: S.environment,
        reservation_id: 'rsv-1',
      }),
    index: pk('reservations'),
    seeks: 'id',
  },
  {
    name: 'console GET /orders/reservations?orderReference= (reservations by reference)',
    run: (db) => reservationsUnderReference(db, S, 'ref-1', 20),
    index: 'reservations_seller_reference',
    seeks: 'order_reference',
  },
  {
    name: 'console POST /orders/by-key-code (the key of a fingerprint, with its order)',
    run: (db) => soldKeysByFingerprint(db, S.sellerId, ['fp-1', 'fp-2']),
    index: postgres ? 'game_keys_fingerprint_key' : 'sqlite_autoindex_game_keys_2',
    seeks: 'fingerprint',
  },
  {
    name: 'console GET /orders (keys taken back per order of the page)',
    run: (db) => keysTakenBackPerOrder(db, ['ord-1', 'ord-2']),
    index: postgres ? 'refund_keys_pk' : 'sqlite_autoindex_refund_keys_1',
    seeks: 'order_id',
  },
  {
    name: "GET /orders and console GET /orders (key ids of the page's orders)",
    run: (db) => keyIdsOfOrders(db, ['ord-1', 'ord-2']),
    index: 'game_keys_order',
    seeks: 'order_id',
  },
  {
    name: 'console GET /orders (keys replaced per order of the page)',
    run: (db) => keysReplacedPerOrder(db, ['ord-1', 'ord-2']),
    index: 'key_replacements_order',
    seeks: 'order_id',
  },
  {
    name: 'GET /finance/api-sales?orderReference=',
    run: (db) => listSaleLines(db, { ...S, orderReference: 'ref-1', limit: 50 }),
    index: 'sale_lines_seller_reference',
    seeks: 'order_reference',
  },
  {
    name: 'GET /finance/api-sales?entryType=sale_reversal',
    run: (db) => listSaleLines(db, { ...S, entryType: 'sale_reversal', limit: 50 }),
    index: 'sale_lines_seller_reversals',
    seeks: 'environment',
  },
  {
    name: 'GET /finance/api-sales',
    run: (db) => listSaleLines(db, { ...S, limit: 50 }),
    index: 'sale_lines_seller_created',
    seeks: 'environment',
  },
  {
    name: 'GET /activity?orderReference=',
    run: (db) => listActivity(db, { ...S, orderReference: 'ref-1' }, 51),
    index: 'activity_seller_reference',
    seeks: 'order_reference',
  },
  {
    name: 'GET /activity?kind=refund',
    run: (db) => listActivity(db, { ...S, kinds: ['refund'] }, 51),
    index: 'activity_seller_kind',
    seeks: 'kind',
  },
  {
    name: 'GET /activity?counterparty=',
    run: (db) => listActivity(db, { ...S, counterparty: 'co-publisher' }, 51),
    index: 'activity_seller_counterparty',
    seeks: 'counterparty_company_id',
  },
  {
    name: 'GET /activity?promoId=',
    run: (db) => listActivity(db, { ...S, promoId: 'promo-1' }, 51),
    index: 'activity_seller_promo',
    seeks: 'promo_id',
  },
  {
    name: 'GET /activity',
    run: (db) => listActivity(db, { ...S }, 51),
    index: 'activity_entries_seller_created',
    seeks: 'environment',
  },
  {
    name: 'GET /refunds?orderReference=',
    run: (db) => listRefunds(db, { ...S, owner: S.sellerId, orderReference: 'ref-1', limit: 50 }),
    index: 'refund_keys_seller_reference',
    seeks: 'order_reference',
  },
  {
    name: 'GET /refunds',
    run: (db) => listRefunds(db, { ...S, owner: S.sellerId, limit: 50 }),
    index: 'refunds_owner_created',
    seeks: 'reference_owner',
  },
  {
    name: 'POST /refunds replay (reference per owner)',
    run: (db) => findRefundByReference(db, 'production', S.sellerId, 'refund', 'r-1'),
    index: 'refunds_reference',
    seeks: 'reference',
  },
  { name: 'GET /events', run: (db) => feed(db), index: 'outbox_events_feed', seeks: 'environment' },
  {
    name: 'webhook publisher and console notices (the newest published event, read every pass)',
    run: (db) => lastPublication(db),
    index: 'outbox_events_published',
    // PostgreSQL reads each day's index backwards from its end, a walk with no condition to name.
    seeks: postgres ? '' : 'published_seq',
  },
  {
    name: 'GET /events?types=',
    run: (db) => feed(db, ['order.fulfilled']),
    index: 'outbox_events_feed_type',
    seeks: 'event_type',
  },
  {
    name: 'GET /finance/statements, /finance/summary (kept totals)',
    run: (db) =>
      keptSaleTotals(db, S, { span: 'month', start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 1, 1) }),
    index: pk('sale_totals'),
    seeks: 'bucket_start',
  },
  {
    name: 'GET /finance/summary (the part hour at either end)',
    run: (db) => saleTotals(db, S, Date.UTC(2026, 0, 1, 10, 5), Date.UTC(2026, 0, 1, 10, 40)),
    index: 'sale_lines_seller_created',
    seeks: 'created_at',
  },
  {
    name: 'GET /usage (keys per day)',
    run: (db) => keysPerDay(db, S, 20_000, 20_006),
    index: pk('activity_day_totals'),
    seeks: 'day',
  },
  {
    name: 'GET /availability (keys promised to holds, pre-orders and reservations)',
    run: (db) => promisedOn(db, ['alloc-1'], Date.UTC(2026, 0, 1)),
    index: 'orders_open_preorders',
    seeks: 'allocation_id',
  },
  {
    name: 'GET /availability (stock per pool)',
    run: (db) => availableInPools(db, ['pool-1', 'pool-2']),
    index: pk('pool_stock'),
    seeks: 'pool_id',
  },
];

/** Tables a seller read must never scan whole. */
const LARGE = [
  'orders',
  'sale_lines',
  'activity_entries',
  'refunds',
  'refund_keys',
  'reservations',
  'checkout_holds',
  'outbox_events',
  'sale_totals',
  'activity_day_totals',
  'pool_stock',
  'game_keys',
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** A bound value as a PostgreSQL literal (the values of the reads above: text and numbers). */
function literal(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`no literal for ${typeof value} ${String(value)}`);
}

/** The plan as lines, the index seeks as `index: condition`, and the tables scanned whole. */
async function explain(query: CompiledQuery): Promise<{ text: string; seeks: string[]; scans: string[] }> {
  if (postgres) {
    return t.ctx.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await trx.executeQuery(Query.raw(`prepare seller_read as ${query.sql}`));
      try {
        // EXECUTE takes its arguments as SQL text: the values written as literals.
        const args = query.parameters.map(literal).join(', ');
        const run = (format: string) =>
          trx.executeQuery<Record<string, unknown>>(
            Query.raw(`explain (${format}) execute seller_read${args ? `(${args})` : ''}`),
          );
        const json = (await run('format json')).rows[0]!['QUERY PLAN'] as [{ Plan: PlanNode }];
        const text = (await run('costs off')).rows.map((r) => r['QUERY PLAN']).join('\n');
        const nodes = nodesOf(json[0].Plan);
        // A day partition's table and indexes answer for the partitioned table's (db/day-partitions.ts).
        const parentOf = async (name: string) => {
          const { rows } = await sql<{ parent: string }>`select p.relname as parent from pg_inherits i
            join pg_class p on p.oid = i.inhparent where i.inhrelid = to_regclass(${name})`.execute(trx);
          return rows[0]?.parent ?? name;
        };
        const seeks: string[] = [];
        const scans: string[] = [];
        for (const n of nodes) {
          if (n['Index Name']) seeks.push(`${await parentOf(n['Index Name'])}: ${n['Index Cond'] ?? ''}`);
          if (n['Node Type'] === 'Seq Scan') scans.push(await parentOf(n['Relation Name']!));
        }
        return { text, seeks, scans };
      } finally {
        await sql`deallocate seller_read`.execute(trx);
      }
    });
  }
  const rows = (
    await t.ctx.db.executeQuery<{ detail: string }>(
      Query.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    )
  ).rows;
  const details = rows.map((r) => r.detail);
  return {
    text: details.join('\n'),
    seeks: details
      .map((d) => /USING (?:COVERING )?INDEX (\S+) \((.*)\)/.exec(d))
      .filter((m) => m !== null)
      .map((m) => `${m[1]}: ${m[2]}`),
    scans: details
      .map((d) => /^SCAN (\w+)/.exec(d)?.[1])
      .filter((table): table is string => table !== undefined && !/^\(|CONSTANT|^sqlite_/.test(table)),
  };
}

/**
 * PostgreSQL prices the indexes of an empty table alike and picks among them by order; a few
 * thousand sale lines and reservations over many sellers and an ANALYZE give it the statistics
 * a real tenant has (written without their orders: foreign keys and triggers are off for this
 * one transaction).
 */
async function givePostgresStatistics() {
  await t.ctx.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`insert into sale_lines (id, seller_company_id, environment, order_id, order_reference, entry_type,
      publisher_company_id, sku_id, sku_code, quantity, unit_price_cents, sale_price_cents,
      initial_sale_price_cents, currency_code, tax_metadata, customer_region_code, country_mismatch,
      warnings, created_at)
    select 'line-' || i, case when i % 5 = 0 then 'co-seller' else 'co-' || (i % 50) end, 'production', 'order-' || i, 'ref-' || i,
      case when i % 20 = 0 then 'sale_reversal' else 'sale' end, 'co-publisher', 'sku', 'SKU', 1, 100,
      100, 100, 'EUR', '{}', 'DE', 0, '[]', ${Date.UTC(2026, 0, 1)}::bigint + i * 60000
    from generate_series(1, 5000) i`.execute(trx);
    await sql`insert into reservations (id, seller_company_id, environment, api_key_id, allocation_id,
      sku_code, quantity, order_reference, line, status, expires_at, created_at, updated_at)
    select 'rsv-' || i, case when i % 5 = 0 then 'co-seller' else 'co-' || (i % 50) end, 'production', 'key',
      'alloc', 'SKU', 1, 'ref-' || i, 'line', case when i % 3 = 0 then 'consumed' else 'expired' end,
      ${Date.UTC(2026, 0, 1)}::bigint + i * 60000, ${Date.UTC(2026, 0, 1)}::bigint + i * 60000,
      ${Date.UTC(2026, 0, 1)}::bigint + i * 60000
    from generate_series(1, 5000) i`.execute(trx);
  });
  await sql`analyze sale_lines`.execute(t.ctx.db);
  await sql`analyze reservations`.execute(t.ctx.db);
}

describe(`seller reads seek their indexes (${ENGINE})`, () => {
  beforeAll(async () => {
    if (postgres) await givePostgresStatistics();
  });

  it('every seller read seeks the index it was given, and none scans a large table', async () => {
    const report: string[] = [
      `# Seller read plans (${ENGINE})`,
      '',
      'Written by `WRITE_PLANS=1 npx vitest run src/db/seller-read-plans.test.ts`.',
      '',
    ];
    const failures: string[] = [];
    for (const read of READS) {
      const { db, queries } = recorder();
      await read.run(db).catch(() => undefined);
      expect(queries.length, read.name).toBeGreaterThan(0);
      for (const query of queries) {
        const plan = await explain(query);
        report.push(`## ${read.name}`, '', '```sql', query.sql, '```', '', '```', plan.text, '```', '');
        const scanned = plan.scans.filter((table) => LARGE.includes(table));
        if (scanned.length > 0) failures.push(`${read.name}: scans ${scanned.join(', ')}`);
      }
      const seeks = (await Promise.all(queries.map(explain))).flatMap((p) => p.seeks);
      const sought = seeks.some((s) => s.startsWith(`${read.index}: `) && s.includes(read.seeks));
      if (!sought)
        failures.push(`${read.name}: does not seek ${read.index} on ${read.seeks} (${seeks.join(' | ')})`);
    }
    if (process.env.WRITE_PLANS) {
      writeFileSync(fileURLToPath(new URL(`./plans/${ENGINE}.md`, import.meta.url)), report.join('\n'));
    }
    expect(failures).toEqual([]);
  });

  it('fails a read that has no index for its filter (the check can fail)', async () => {
    const { db, queries } = recorder();
    await db.selectFrom('sale_lines').selectAll().where('sku_code', '=', 'X').execute();
    const plan = await explain(queries[0]!);
    expect(plan.scans).toContain('sale_lines');
  });
});
