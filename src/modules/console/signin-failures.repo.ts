import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** The latest `blocked_until` (epoch ms) among the subjects; 0 when none is blocked. */
export async function blockedUntil(ex: Executor, subjects: string[]): Promise<number> {
  const rows = await ex
    .selectFrom('console_signin_failures')
    .select(['blocked_until'])
    .where('subject', 'in', subjects)
    .execute();
  return Math.max(0, ...rows.map((row) => row.blocked_until));
}

/**
 * Counts one failure of the subject at `now` (a count older than `forgetBefore` starts again at
 * one) and returns the count, read from the same upsert: a sign-in that succeeds at the same
 * moment may clear the row between two statements.
 */
export async function countFailure(
  ex: Executor,
  subject: string,
  now: number,
  forgetBefore: number,
): Promise<number> {
  const row = await ex
    .insertInto('console_signin_failures')
    .values({ subject, failures: 1, last_failure_at: now, blocked_until: 0 })
    .onConflict((oc) =>
      oc.column('subject').doUpdateSet({
        failures: sql`case when console_signin_failures.last_failure_at < ${forgetBefore}
            then 1 else console_signin_failures.failures + 1 end`,
        last_failure_at: now,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

export const blockSubject = (ex: Executor, subject: string, until: number) =>
  ex
    .updateTable('console_signin_failures')
    .set({ blocked_until: until })
    .where('subject', '=', subject)
    .execute();

export const forgetSubject = (ex: Executor, subject: string) =>
  ex.deleteFrom('console_signin_failures').where('subject', '=', subject).execute();
