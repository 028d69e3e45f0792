import { describe, expect, it } from 'vitest';
import { migrateUpTo } from '../../../test/migrations.js';
import { openDatabase } from '../database.js';

describe('migration 0007_hardening (embedded SQLite)', () => {
  it('drops completed replies stored readable, keeps sealed ones and in-flight claims, seeds the test clock', async () => {
    const handle = openDatabase({ engine: 'sqlite', path: ':memory:' });
    try {
      expect((await migrateUpTo(handle.db, '0006_checkout')).error).toBeUndefined();
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

      expect((await migrateUpTo(handle.db, '0007_hardening')).error).toBeUndefined();
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
