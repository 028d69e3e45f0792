import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateUpTo } from '../../../test/migrations.js';
import { openDatabase } from '../database.js';
import { MIGRATIONS } from '../migrate.js';

const T0 = Date.UTC(2026, 10, 30, 23, 59, 58, 500);

/** A sale line with only what the totals read; its parents do not matter here. */
const insertLine = (id: string, at: number, cents: number) =>
  sql`insert into sale_lines (id, seller_company_id, environment, order_id, order_reference, entry_type,
    reverses_transaction_id, publisher_company_id, sku_id, sku_code, quantity, unit_price_cents,
    sale_price_cents, initial_sale_price_cents, currency_code, wholesale_cents, wholesale_currency_code,
    promo, tax_metadata, customer_region_code, country_mismatch, warnings, created_at)
    values (${id}, 's', 'production', 'o', ${id}, 'sale', null, 'p', 'k', 'K', 1, ${cents}, ${cents},
    ${cents}, 'USD', null, null, null, '{}', 'US', 0, '[]', ${at})`;

describe('migration 0039_fine_sale_totals (embedded SQLite)', () => {
  it('counts existing lines into minute and second buckets, and new lines into all five spans; down removes them', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: ':memory:' });
    const db = handle.db;
    const buckets = async () =>
      (
        await sql<{ span: string; bucket_start: number; gross: number; sale_count: number }>`
          select span, bucket_start, sum(gross) as gross, sum(sale_count) as sale_count from sale_totals
          group by span, bucket_start order by span, bucket_start`.execute(db)
      ).rows.map((r) => [r.span, r.bucket_start - T0, Number(r.gross), Number(r.sale_count)]);
    try {
      expect((await migrateUpTo(db, '0037_webhook_console')).error).toBeUndefined();
      await sql`pragma foreign_keys = off`.execute(db);
      await insertLine('a', T0, 100).execute(db);
      await insertLine('b', T0 + 400, 20).execute(db);
      await insertLine('c', T0 + 1_600, 3).execute(db);

      expect((await migrateUpTo(db, '0039_fine_sale_totals')).error).toBeUndefined();
      const second = (at: number) => Math.floor(at / 1000) * 1000 - T0;
      expect((await buckets()).filter(([span]) => span === 'second' || span === 'minute')).toEqual([
        ['minute', Math.floor(T0 / 60_000) * 60_000 - T0, 120, 2],
        ['minute', Math.floor((T0 + 1_600) / 60_000) * 60_000 - T0, 3, 1],
        ['second', second(T0), 120, 2],
        ['second', second(T0 + 1_600), 3, 1],
      ]);

      await insertLine('d', T0 + 1_700, 4000).execute(db);
      const afterInsert = await buckets();
      expect(afterInsert.filter(([span]) => span === 'second').at(-1)).toEqual([
        'second',
        second(T0 + 1_600),
        4003,
        2,
      ]);
      expect(afterInsert.filter(([span]) => span === 'month').map(([, , gross]) => gross)).toEqual([
        120, 4003,
      ]);

      const { error } = await new Migrator({
        db,
        provider: { getMigrations: async () => MIGRATIONS },
      }).migrateTo('0037_webhook_console');
      expect(error).toBeUndefined();
      expect((await buckets()).some(([span]) => span === 'second' || span === 'minute')).toBe(false);
      await insertLine('e', T0 + 1_800, 1).execute(db);
      expect((await buckets()).some(([span]) => span === 'second' || span === 'minute')).toBe(false);
    } finally {
      await handle.close();
    }
  });
});
