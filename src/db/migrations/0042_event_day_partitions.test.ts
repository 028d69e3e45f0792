import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../test/harness.js';
import { migrationSandbox } from '../../../test/migration-sandbox.js';
import { newEventId } from '../../modules/events/outbox.service.js';

const DAY_MS = 86_400_000;
const TABLES = ['outbox_events', 'webhook_deliveries', 'webhook_attempts'];

describe.skipIf(ENGINE !== 'postgres')('migration 0042_event_day_partitions (PostgreSQL)', () => {
  it('moves every event, delivery and attempt into its event day, keeps the keys and indexes, and down puts the tables back', async () => {
    const { schema, db, migrateTo, partitions, drop } = await migrationSandbox();
    const now = Date.now();
    // The keys and indexes by name, and the constraints by name and kind.
    const catalog = async () => {
      const indexes = await sql<{ name: string }>`select indexname as name from pg_indexes
        where schemaname = ${schema} and tablename = any(${TABLES}) order by 1`.execute(db);
      const constraints = await sql<{ name: string; kind: string }>`select conname as name, contype as kind
        from pg_constraint where conrelid = any(${TABLES}::regclass[]) and conparentid = 0 order by 1`.execute(
        db,
      );
      return { indexes: indexes.rows, constraints: constraints.rows };
    };
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const table of TABLES) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
        out[table] = Number(rows[0]?.n);
      }
      return out;
    };
    try {
      expect((await migrateTo('0041_replica_write_marks')).error).toBeUndefined();
      const before = await catalog();
      await sql`insert into companies (id, name, kind, created_at, updated_at)
        values ('c', 'C', 'seller', 0, 0)`.execute(db);
      await sql`insert into webhook_endpoints (id, company_id, environment, url, event_types, status,
        secret_sealed, created_at, updated_at) values ('ep', 'c', 'sandbox', 'https://x', '["*"]', 'active', 's', 0, 0)`.execute(
        db,
      );
      let order = 0;
      for (const age of [40 * DAY_MS, 2 * DAY_MS, 60_000]) {
        const at = now - age;
        const eventId = newEventId(at);
        order += 1;
        await sql`insert into outbox_events (event_id, company_id, environment, event_type, event_version, payload,
          created_at_us, deliver_after, published_seq, published_at_us)
          values (${eventId}, 'c', 'sandbox', 'test.ping', 1, '{}', ${at * 1000}, ${at}, ${order}, ${at * 1000})`.execute(
          db,
        );
        await sql`insert into webhook_deliveries (id, endpoint_id, company_id, environment, event_id, event_order,
          status, next_attempt_at, created_at, updated_at)
          values (${`d${order}`}, 'ep', 'c', 'sandbox', ${eventId}, ${order}, 'succeeded', ${at}, ${at}, ${at})`.execute(
          db,
        );
        await sql`insert into webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, status_code,
          duration_ms, attempted_at) values (${`d${order}`}, 'ep', ${eventId}, 'test.ping', 1, 200, 5, ${at})`.execute(
          db,
        );
      }
      const rowsBefore =
        await sql`select event_id, seq, published_seq from outbox_events order by seq`.execute(db);

      expect((await migrateTo('0042_event_day_partitions')).error).toBeUndefined();
      // Every row moved, each to its event's day (the 40-day-old one too: the upkeep decides when it goes).
      expect(await counts()).toEqual({ outbox_events: 3, webhook_deliveries: 3, webhook_attempts: 3 });
      expect(
        (await sql`select event_id, seq, published_seq from outbox_events order by seq`.execute(db)).rows,
      ).toEqual(rowsBefore.rows);
      const placed = await sql<{
        part: string;
        n: string;
      }>`select tableoid::regclass::text as part, count(*) as n
        from webhook_attempts group by 1`.execute(db);
      expect(placed.rows).toHaveLength(3);
      for (const table of TABLES) {
        const days = await partitions(table);
        // Three event days (two may share one with today's week) and the week ahead.
        expect(days.length).toBeGreaterThanOrEqual(1 + 1 + 7);
      }
      // The same names, but the attempts' key to their delivery, now held by each day of attempts.
      const after = await catalog();
      expect(after.indexes).toEqual(before.indexes);
      expect(after.constraints).toEqual(
        before.constraints.filter((c) => c.name !== 'webhook_attempts_delivery_id_fkey'),
      );
      const keys = await sql<{ on: string; def: string }>`select conrelid::regclass::text as on,
        pg_get_constraintdef(oid) as def from pg_constraint where contype = 'f'
        and conrelid in (select inhrelid from pg_inherits where inhparent = 'webhook_attempts'::regclass)`.execute(
        db,
      );
      expect(keys.rows).toHaveLength((await partitions('webhook_attempts')).length);
      for (const key of keys.rows) {
        expect(key.def).toBe(
          `FOREIGN KEY (delivery_id, event_id) REFERENCES ${key.on.replace('attempts', 'deliveries')}(id, event_id) ON DELETE CASCADE`,
        );
      }
      const pkey = await sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint
        where conname = 'webhook_deliveries_pkey'`.execute(db);
      expect(pkey.rows[0]?.def).toBe('PRIMARY KEY (id, event_id)');
      // The outbox's autovacuum settings live on each of its partitions.
      const settings = await sql<{
        options: string[] | null;
      }>`select c.reloptions as options from pg_inherits i
        join pg_class c on c.oid = i.inhrelid where i.inhparent = 'outbox_events'::regclass`.execute(db);
      for (const { options } of settings.rows) expect(options).toContain('autovacuum_vacuum_threshold=5000');
      // The sequence continues after the moved rows; a delivery's deletion still takes its attempts.
      const next = newEventId(now);
      const seq = await sql<{
        seq: string;
      }>`insert into outbox_events (event_id, company_id, environment, event_type,
        event_version, payload, created_at_us, deliver_after) values (${next}, 'c', 'sandbox', 'test.ping', 1, '{}',
        ${now * 1000}, ${now}) returning seq`.execute(db);
      expect(Number(seq.rows[0]?.seq)).toBe(4);
      await sql`delete from webhook_deliveries where id = 'd3'`.execute(db);
      expect((await counts()).webhook_attempts).toBe(2);
      // An attempt of an event other than its delivery's is refused.
      await expect(
        sql`insert into webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, duration_ms,
          attempted_at) values ('d2', 'ep', ${next}, 'test.ping', 1, 5, ${now})`.execute(db),
      ).rejects.toThrow(/foreign key/);

      const down = await migrateTo('0041_replica_write_marks');
      expect(down.error).toBeUndefined();
      for (const table of TABLES) expect(await partitions(table)).toEqual([]);
      expect(await catalog()).toEqual(before);
      expect(await counts()).toEqual({ outbox_events: 4, webhook_deliveries: 2, webhook_attempts: 2 });
      const options = await sql<{ options: string[] | null }>`select reloptions as options from pg_class
        where oid = 'outbox_events'::regclass`.execute(db);
      expect(options.rows[0]?.options).toContain('autovacuum_vacuum_threshold=5000');
      // Up again over the rows down put back.
      expect((await migrateTo('0042_event_day_partitions')).error).toBeUndefined();
      expect(await counts()).toEqual({ outbox_events: 4, webhook_deliveries: 2, webhook_attempts: 2 });
    } finally {
      await drop();
    }
  });
});
