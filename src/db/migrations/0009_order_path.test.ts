import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateUpTo } from '../../../test/migrations.js';
import { openDatabase } from '../database.js';

describe('migration 0009_order_path (embedded SQLite)', () => {
  it('starts grants holding live holds or pre-orders at promise_version 1, the rest at 0; the catalog version at 0', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: ':memory:' });
    try {
      expect((await migrateUpTo(handle.db, '0007_hardening')).error).toBeUndefined();
      // Only the rows the migration reads; their parents do not matter to it.
      await sql`pragma foreign_keys = off`.execute(handle.db);
      const allocation = (id: string) => ({
        id,
        readable_id: `alloc_${id}`,
        seller_company_id: 's',
        publisher_company_id: 'p',
        connection_id: 'c',
        environment: 'production',
        sku_id: 'k',
        quantity_limit: 10,
        business_model: 'api',
        status: 'active' as const,
        payment_status: 'invoiced',
        request_policy: 'manual',
        created_at: 0,
        updated_at: 0,
      });
      await sql`insert into allocations (id, readable_id, seller_company_id, publisher_company_id,
        connection_id, environment, sku_id, quantity_limit, business_model, status, payment_status,
        request_policy, created_at, updated_at)
        values ${sql.join(
          ['held', 'expired-hold', 'preordered', 'plain'].map((id) => {
            const a = allocation(id);
            return sql`(${sql.join(Object.values(a))})`;
          }),
        )}`.execute(handle.db);
      const hold = (id: string, allocationId: string, status: string) =>
        sql`insert into checkout_holds (id, seller_company_id, environment, api_key_id, allocation_id,
          sku_id, sku_code, quantity, country_code, currency_code, order_reference, unit_price_cents,
          initial_unit_price_cents, status, expires_at, created_at, updated_at)
          values (${id}, 's', 'production', 'key', ${allocationId}, 'k', 'K', 1, 'US', 'USD', ${id},
          1, 1, ${status}, 0, 0, 0)`.execute(handle.db);
      await hold('h1', 'held', 'active');
      await hold('h2', 'expired-hold', 'consumed');
      await sql`insert into orders (id, readable_id, seller_company_id, environment, api_key_id,
        reference_owner, order_reference, kind, delivery, sku_id, sku_code, product_id, allocation_id,
        publisher_company_id, quantity, pulled, warnings, contract_date, created_at, updated_at)
        values ('o1', 'ord_1', 's', 'production', 'key', 's', 'r1', 'order', 'preorder', 'k', 'K',
        'p', 'preordered', 'p', 1, 0, '[]', '2026-09-01', 0, 0)`.execute(handle.db);
      await sql`pragma foreign_keys = on`.execute(handle.db);

      expect((await migrateUpTo(handle.db, '0009_order_path')).error).toBeUndefined();
      const versions = await handle.db
        .selectFrom('allocations')
        .select(['id', 'promise_version'])
        .orderBy('id')
        .execute();
      expect(versions).toEqual([
        { id: 'expired-hold', promise_version: 0 },
        { id: 'held', promise_version: 1 },
        { id: 'plain', promise_version: 0 },
        { id: 'preordered', promise_version: 1 },
      ]);
      expect(await handle.db.selectFrom('catalog_version').select('version').execute()).toEqual([
        { version: 0 },
      ]);
    } finally {
      await handle.close();
    }
  });
});
