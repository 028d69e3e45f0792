import type { Insertable } from 'kysely';
import { insertOnce } from '../../db/compiled-once.js';
import type { Executor } from '../../db/database.js';
import type { CatalogChangesTable, OutboxEventsTable } from './events.table.js';

const insertOutboxRows = insertOnce('outbox_events');

export async function insertEvents(ex: Executor, rows: Insertable<OutboxEventsTable>[]): Promise<void> {
  if (rows.length > 0) await insertOutboxRows(ex, rows);
}

export async function insertCatalogChanges(
  ex: Executor,
  rows: Insertable<CatalogChangesTable>[],
): Promise<void> {
  if (rows.length > 0) await ex.insertInto('catalog_changes').values(rows).execute();
}

/** A seller's catalog change rows in order: after a sequence number (cursor) or since an instant. */
export function catalogChangesOf(
  ex: Executor,
  sellerId: string,
  environment: string,
  position: { afterSeq?: number; since?: number },
  limit: number,
) {
  let query = ex
    .selectFrom('catalog_changes')
    .selectAll()
    .where('seller_company_id', '=', sellerId)
    .where('environment', '=', environment);
  if (position.afterSeq !== undefined) query = query.where('seq', '>', position.afterSeq);
  else if (position.since !== undefined) query = query.where('occurred_at', '>=', position.since);
  return query.orderBy('seq').limit(limit).execute();
}
