import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../test/harness.js';
import { migrationSandbox } from '../../../test/migration-sandbox.js';

const DAY_MS = 86_400_000;

describe.skipIf(ENGINE !== 'postgres')('migration 0040_day_partitions (PostgreSQL)', () => {
  it('moves the kept rows into day partitions, leaves the expired ones behind, and down puts the tables back', async () => {
    const { db, migrateTo, partitions, drop } = await migrationSandbox();
    const now = Date.now();
    try {
      expect((await migrateTo('0039_fine_sale_totals')).error).toBeUndefined();
      for (const [id, age] of [
        ['old', 20 * DAY_MS],
        ['week', 7 * DAY_MS],
        ['fresh', 60_000],
      ] as const) {
        await sql`insert into request_log (request_id, company_id, environment, key_id, key_name, method,
          route, path, status, duration_ms, contract_date, at)
          values (${id}, 'c', 'sandbox', 'k', 'key', 'GET', '/w', '/w', 200, 1, '2026-01-01', ${now - age})`.execute(
          db,
        );
        await sql`insert into idempotency_records (company_id, environment, idempotency_key, request_hash,
          locked_until, created_at) values ('c', 'sandbox', ${id}, 'h', 0, ${now - age})`.execute(db);
      }

      expect((await migrateTo('0040_day_partitions')).error).toBeUndefined();
      const requests = await sql<{
        request_id: string;
      }>`select request_id from request_log order by at`.execute(db);
      expect(requests.rows.map((r) => r.request_id)).toEqual(['week', 'fresh']);
      const records = await sql<{ k: string }>`select idempotency_key as k from idempotency_records`.execute(
        db,
      );
      expect(records.rows.map((r) => r.k)).toEqual(['fresh']);
      // The kept days and a week ahead: 14 or 15 days back for the log, 1 or 2 for the records.
      expect((await partitions('request_log')).length).toBeGreaterThanOrEqual(14 + 1 + 7);
      expect((await partitions('idempotency_records')).length).toBeGreaterThanOrEqual(1 + 1 + 7);
      // The records' autovacuum settings live on each partition.
      const settings = await sql<{
        options: string[] | null;
      }>`select c.reloptions as options from pg_inherits i
        join pg_class c on c.oid = i.inhrelid where i.inhparent = 'idempotency_records'::regclass`.execute(
        db,
      );
      for (const { options } of settings.rows) expect(options).toContain('autovacuum_vacuum_threshold=5000');
      // The unique keys hold the partition key: one key on two days is two rows for the index.
      await sql`insert into idempotency_records (company_id, environment, idempotency_key, request_hash,
        locked_until, created_at) values ('c', 'sandbox', 'fresh', 'h', 0, ${now + DAY_MS})`.execute(db);

      const { error } = await migrateTo('0039_fine_sale_totals');
      // Back to one plain table whose key is the idempotency key alone: the two rows refuse it.
      expect(String(error)).toMatch(/could not create unique index/);
      await sql`delete from idempotency_records where created_at > ${now}`.execute(db);
      const down = await migrateTo('0039_fine_sale_totals');
      expect(down.error).toBeUndefined();
      expect(await partitions('request_log')).toEqual([]);
      const after = await sql<{ n: string }>`select count(*) as n from request_log`.execute(db);
      expect(Number(after.rows[0]?.n)).toBe(2);
    } finally {
      await drop();
    }
  });
});
