import { sql } from 'kysely';
import type { Db } from './database.js';

/** A session advisory lock's key: the 64-bit hash of its name. */
const keyOf = (name: string) => sql`hashtextextended(${name}, 0)`;

/** Takes the session lock named `name` on this connection unless another session holds it. */
export async function tryTakeSessionLock(conn: Db, name: string): Promise<boolean> {
  const { rows } = await sql<{
    taken: boolean;
  }>`select pg_try_advisory_lock(${keyOf(name)}) as taken`.execute(conn);
  return Boolean(rows[0]?.taken);
}

export async function releaseSessionLock(conn: Db, name: string): Promise<void> {
  await sql`select pg_advisory_unlock(${keyOf(name)})`.execute(conn);
}
