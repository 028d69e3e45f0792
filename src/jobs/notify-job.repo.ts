import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { JOBS_CHANNEL } from './pg-wakeups.js';

/** The job that converts accepted pre-orders once their release is out (checkout/preorders). */
export const PREORDER_CONVERSION_JOB = 'preorder-conversion';
/** The job that sends due webhook deliveries (webhooks/webhooks.jobs.ts). */
export const WEBHOOK_DELIVERY_JOB = 'webhooks-deliver';

/**
 * Wakes the named job in every process when the caller's transaction commits: a NOTIFY on
 * PostgreSQL is delivered at commit only, and not at all on rollback. SQLite is one process
 * whose jobs look on their short idle interval, so nothing is sent there.
 */
export async function wakeJobAtCommit(trx: Executor, job: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_notify(${JOBS_CHANNEL}, ${job})`.execute(trx);
}

/**
 * Whether work made by any process wakes the jobs of every process at its commit (PostgreSQL:
 * NOTIFY, which each process LISTENs for), so a job's idle interval only catches what no notice
 * announces. SQLite sends none: its one process's jobs find their work by looking often.
 */
export const jobsWakeOnNotice = (db: Executor): boolean => isPostgres(db);
