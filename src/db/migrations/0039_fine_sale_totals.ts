import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';
import { insertTotals, PG_SHARD, saleTotalsOf, saleTotalsOfNewRow, spans } from './0024_flat_seller_reads.js';

/**
 * Minute and second totals beside the month, day and hour ones, so that a window with edges
 * anywhere (a summary to "now", a custom `from`) reads kept totals down to the second and sums
 * sale lines only for the part of a second at each end, whatever the seller's volume.
 *
 * The sale-line trigger is replaced by one counting all five spans; the existing lines are
 * counted into minute and second buckets (shard 0) here.
 */

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

type SpanBucket = ReturnType<typeof spans>[number];
const FINE: SpanBucket[] = [
  ['minute', (at) => `(${at} / ${MINUTE_MS}) * ${MINUTE_MS}`],
  ['second', (at) => `(${at} / ${SECOND_MS}) * ${SECOND_MS}`],
];

async function countWith(db: Kysely<unknown>, counted: SpanBucket[]) {
  if (isPostgres(db)) {
    await sql
      .raw(`create or replace function sale_lines_totals() returns trigger language plpgsql as $body$
        begin ${insertTotals(saleTotalsOf('new_rows', PG_SHARD, counted))}; return null; end $body$`)
      .execute(db);
  } else {
    await sql.raw('drop trigger sale_lines_totals').execute(db);
    await sql
      .raw(
        `create trigger sale_lines_totals after insert on sale_lines begin ${insertTotals(saleTotalsOfNewRow(counted))}; end`,
      )
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await countWith(db, [...spans(postgres), ...FINE]);
  await sql.raw(insertTotals(saleTotalsOf('sale_lines', '0', FINE))).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await countWith(db, spans(isPostgres(db)));
  await db.deleteFrom('sale_totals').where('span', 'in', ['minute', 'second']).execute();
}
