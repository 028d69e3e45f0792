import { type Migration, Migrator } from 'kysely';
import type { Config } from '../config.js';
import { type Db, onSessionConnection } from './database.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_publisher_catalog.js';
import * as m0003 from './migrations/0003_supply_and_outbox.js';
import * as m0004 from './migrations/0004_seller_reads.js';
import * as m0005 from './migrations/0005_catalog_exports.js';
import * as m0006 from './migrations/0006_checkout.js';
import * as m0007 from './migrations/0007_hardening.js';
import * as m0008 from './migrations/0008_events_webhooks.js';
import * as m0009 from './migrations/0009_order_path.js';
import * as m0010 from './migrations/0010_after_sale.js';
import * as m0012 from './migrations/0012_finance.js';
import * as m0013 from './migrations/0013_hot_drops.js';
import * as m0015 from './migrations/0015_event_retention.js';
import * as m0016 from './migrations/0016_order_path_two.js';
import * as m0017 from './migrations/0017_live_reads_versioned.js';
import * as m0018 from './migrations/0018_outbox_quiet_commits.js';
import * as m0019 from './migrations/0019_outbox_lean_indexes.js';
import * as m0020 from './migrations/0020_fault_recovery.js';
import * as m0021 from './migrations/0021_exact_reversals.js';
import * as m0022 from './migrations/0022_attestations_redemption_links.js';
import * as m0023 from './migrations/0023_time_sweeps_and_sunsets.js';
import * as m0024 from './migrations/0024_flat_seller_reads.js';
import * as m0026 from './migrations/0026_console.js';
import * as m0028 from './migrations/0028_replacement_policy_versioned.js';
import * as m0029 from './migrations/0029_key_last_used.js';
import * as m0030 from './migrations/0030_console_notices.js';
import * as m0032 from './migrations/0032_audit_keyset.js';
import * as m0033 from './migrations/0033_bulk_lines_reservation_references.js';
import * as m0035 from './migrations/0035_order_reservation_link.js';
import * as m0036 from './migrations/0036_console_second_factor.js';
import * as m0037 from './migrations/0037_webhook_console.js';
import * as m0039 from './migrations/0039_fine_sale_totals.js';
import * as m0040 from './migrations/0040_day_partitions.js';
import * as m0041 from './migrations/0041_replica_write_marks.js';
import * as m0042 from './migrations/0042_event_day_partitions.js';
import * as m0043 from './migrations/0043_report_builds.js';

/** Migrations in order; one set serves SQLite and PostgreSQL. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_publisher_catalog': m0002,
  '0003_supply_and_outbox': m0003,
  '0004_seller_reads': m0004,
  '0005_catalog_exports': m0005,
  '0006_checkout': m0006,
  '0007_hardening': m0007,
  '0008_events_webhooks': m0008,
  '0009_order_path': m0009,
  '0010_after_sale': m0010,
  '0012_finance': m0012,
  '0013_hot_drops': m0013,
  '0015_event_retention': m0015,
  '0016_order_path_two': m0016,
  '0017_live_reads_versioned': m0017,
  '0018_outbox_quiet_commits': m0018,
  '0019_outbox_lean_indexes': m0019,
  '0020_fault_recovery': m0020,
  '0021_exact_reversals': m0021,
  '0022_attestations_redemption_links': m0022,
  '0023_time_sweeps_and_sunsets': m0023,
  '0024_flat_seller_reads': m0024,
  '0026_console': m0026,
  '0028_replacement_policy_versioned': m0028,
  '0029_key_last_used': m0029,
  '0030_console_notices': m0030,
  '0032_audit_keyset': m0032,
  '0033_bulk_lines_reservation_references': m0033,
  '0035_order_reservation_link': m0035,
  '0036_console_second_factor': m0036,
  '0037_webhook_console': m0037,
  '0039_fine_sale_totals': m0039,
  '0040_day_partitions': m0040,
  '0041_replica_write_marks': m0041,
  '0042_event_day_partitions': m0042,
  '0043_report_builds': m0043,
};

/** `schema` names the PostgreSQL schema the bookkeeping tables live in (DATABASE_SCHEMA). */
export async function migrateToLatest(db: Db, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export const schemaOf = (config: Pick<Config, 'database'>): string | undefined =>
  config.database.engine === 'postgres' ? config.database.schema : undefined;

/**
 * Migrates the database of a running service or CLI. Kysely's migrator holds a session
 * advisory lock: on DATABASE_DIRECT_URL when the service reaches PostgreSQL through a pooler.
 */
export const migrateOnSession = (ctx: { db: Db; config: Pick<Config, 'database'> }): Promise<string[]> =>
  onSessionConnection(ctx.db, ctx.config.database, (db) => migrateToLatest(db, schemaOf(ctx.config)));
