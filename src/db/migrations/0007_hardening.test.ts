import { type Migration, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database.js';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_publisher_catalog.js';
import * as m0003 from './0003_supply_and_outbox.js';
import * as m0004 from './0004_seller_reads.js';
import * as m0005 from './0005_catalog_exports.js';
import * as m0006 from './0006_checkout.js';
import * as m0007 from './0007_hardening.js';

const BEFORE: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_publisher_catalog': m0002,
  '0003_supply_and_outbox': m0003,
  '0004_seller_reads': m0004,
  '0005_catalog_exports': m0005,
  '0006_checkout': m0006,
};

describe('migration 0007_hardening (embedded SQLite)', () => {
  it('drops completed replies stored readable, keeps sealed ones and in-flight claims, seeds the test clock', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: ':memory:' });
    try {
      const migrate = (migrations: Record<string, Migration>) =>
        new Migrator({
          db: handle.db,
          provider: { getMigrations: async () => migrations },
        }).migrateToLatest();
      expect((await migrate(BEFORE)).error).toBeUndefined();
      const row = (key: string, sealed: number, status: number | null) => ({
        company_id: 'c1',
        environment: 'sandbox',
        idempotency_key: key,
        request_hash: 'h',
        locked_until: 0,
        created_at: 0,
        status_code: status,
        response_body: status === null ? null : '{"data":{"key":"service_sk_sbx_PLAINTEXT"}}',
        content_type: 'application/json',
        response_sealed: sealed,
      });
      await handle.db
        .insertInto('idempotency_records')
        .values([row('readable', 0, 201), row('sealed', 1, 200), row('in-flight', 0, null)])
        .execute();

      expect((await migrate({ ...BEFORE, '0007_hardening': m0007 })).error).toBeUndefined();
      const left = await handle.db.selectFrom('idempotency_records').select('idempotency_key').execute();
      expect(left.map((r) => r.idempotency_key).sort()).toEqual(['in-flight', 'sealed']);
      expect(await handle.db.selectFrom('test_clock').selectAll().execute()).toEqual([
        { id: 1, offset_ms: 0 },
      ]);
    } finally {
      await handle.close();
    }
  });
});
