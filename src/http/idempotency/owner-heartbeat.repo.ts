import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';

/**
 * The database's clock in epoch ms on PostgreSQL (every process compares the same clock); the
 * process clock on SQLite (one process, one host). Wall time, never the sandbox test clock.
 */
const nowMs = (db: Db): RawBuilder<number> =>
  isPostgres(db)
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`${Date.now()}`;

/** Writes (or moves) the process's heartbeat to now. */
export async function beat(db: Db, processId: string) {
  await db
    .insertInto('process_heartbeats')
    .values({ process_id: processId, beat_at: nowMs(db) as never })
    .onConflict((oc) => oc.column('process_id').doUpdateSet({ beat_at: nowMs(db) as never }))
    .execute();
}

/** Deletes the heartbeats older than `ageMs`: processes long gone. */
export async function forgetBeatsOlderThan(db: Db, ageMs: number) {
  await db
    .deleteFrom('process_heartbeats')
    .where('beat_at', '<', sql<number>`${nowMs(db)} - ${ageMs}`)
    .execute();
}

/** Deletes one process's heartbeat (it stops). */
export async function forgetBeat(db: Db, processId: string) {
  await db.deleteFrom('process_heartbeats').where('process_id', '=', processId).execute();
}

/**
 * Whether `owner` beat within `staleMs`, and (PostgreSQL) whether the database itself started
 * within it; SQLite never restarts under a live process.
 */
export async function ownerBeatAndRestart(db: Db, owner: string, staleMs: number) {
  const restarted = isPostgres(db)
    ? sql<boolean>`pg_postmaster_start_time() > clock_timestamp() - make_interval(secs => ${staleMs / 1000})`
    : sql<boolean>`0`;
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('process_heartbeats')
            .select('process_id')
            .where('process_id', '=', owner)
            .where('beat_at', '>', sql<number>`${nowMs(db)} - ${staleMs}`),
        )
        .as('alive'),
      restarted.as('restarted'),
    ])
    .executeTakeFirstOrThrow();
  return { alive: toBool(row.alive), restarted: toBool(row.restarted) };
}

const toBool = (value: unknown) => value === true || value === 1 || value === '1';
