import { compiledOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import type { RequestLogTable } from './request-log.table.js';

const COLUMNS = [
  'request_id',
  'company_id',
  'environment',
  'key_id',
  'key_name',
  'method',
  'route',
  'path',
  'status',
  'error_code',
  'error_body',
  'duration_ms',
  'contract_date',
  'at',
  'rate_class',
  'rate_bucket',
] as const satisfies readonly (keyof RequestLogTable)[];

/** One row, compiled once: SQLite runs the same prepared statement for every row of a batch. */
const insertOne = compiledOnce(COLUMNS, (db, v) =>
  db
    .insertInto('request_log')
    .values(v as never)
    .onConflict((oc) => oc.column('request_id').doNothing()),
);

/**
 * Writes a batch of request rows (a request already recorded is left as it is). PostgreSQL: one
 * multi-row insert, one round trip. SQLite: the one-row statement per row, each run at once on
 * the writer (no round trips to save there); a multi-row insert would be a new SQL text, built
 * by Kysely and prepared by SQLite, for every batch size (measured: 3.9 ms per 500 rows against
 * 11-18 ms, all of it on the event loop).
 */
export async function insertRequestRows(ex: Executor, rows: readonly RequestLogTable[]): Promise<void> {
  if (isPostgres(ex)) {
    await ex
      .insertInto('request_log')
      .values([...rows])
      .onConflict((oc) => oc.column('request_id').doNothing())
      .execute();
    return;
  }
  for (const row of rows) await insertOne(ex, row as unknown as Record<(typeof COLUMNS)[number], unknown>);
}
