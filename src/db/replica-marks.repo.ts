import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Db } from './database.js';

/**
 * Per company, the primary's WAL position (bytes since 0/0) after its latest write: a read of
 * that company may use the replica once the replica has replayed past it. Every process sees the
 * same marks (Redis, else a table on the primary) so the next request of the same key or session
 * is covered wherever it lands. A mark only rises.
 */
export interface WriteMarks {
  /** Raises the company's mark to a WAL position taken after its write committed. */
  record(companyId: string): Promise<void>;
  /** The company's mark; 0 when it never wrote (or its mark expired). */
  of(companyId: string): Promise<number>;
}

/** The primary's WAL write position, in bytes: past every commit that returned before it is read. */
export async function currentWalPosition(primary: Db): Promise<number> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn() - '0/0' as lsn`.execute(primary);
  return Number(rows[0]!.lsn);
}

/**
 * The standby's replayed WAL position, in bytes, asked on its own pool (never through the
 * fallback to the primary). A server that is not replaying (promoted, or a primary) is refused.
 */
export async function replayedWalPosition(replica: Pick<pg.Pool, 'query'>): Promise<number> {
  const { rows } = await replica.query<{ lsn: string | null }>(
    `select pg_last_wal_replay_lsn() - '0/0' as lsn`,
  );
  const lsn = rows[0]?.lsn;
  if (lsn === null || lsn === undefined) throw new Error('DATABASE_REPLICA_URL is not a standby in recovery');
  return Number(lsn);
}

/** One row per company on the primary; the mark is taken in the same statement as its upsert. */
export function tableWriteMarks(primary: Db): WriteMarks {
  return {
    async record(companyId) {
      await sql`insert into replica_write_marks (company_id, lsn)
        values (${companyId}, pg_current_wal_lsn() - '0/0')
        on conflict (company_id) do update set lsn = greatest(replica_write_marks.lsn, excluded.lsn)`.execute(
        primary,
      );
    },
    async of(companyId) {
      const row = await primary
        .selectFrom('replica_write_marks')
        .select('lsn')
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return row ? Number(row.lsn) : 0;
    },
  };
}

const MARKS_KEY = 'sdapi:replica:write-marks';

/**
 * One sorted set in Redis, company → mark (`ZADD GT` keeps the higher of two racing marks). The
 * position comes from `position`, which may share one primary query among concurrent writes.
 */
export function redisWriteMarks(redis: Redis, position: () => Promise<number>): WriteMarks {
  return {
    async record(companyId) {
      await redis.zadd(MARKS_KEY, 'GT', await position(), companyId);
    },
    async of(companyId) {
      const score = await redis.zscore(MARKS_KEY, companyId);
      return score === null ? 0 : Number(score);
    },
  };
}
