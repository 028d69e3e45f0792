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

/**
 * The newest `limit` broadcast events of a company's allocation among `types`, newest first
 * (the payload of an allocation event starts with its allocationId).
 */
export const allocationEvents = (
  ex: Executor,
  scope: { companyId: string; environment: string },
  allocationId: string,
  types: readonly string[],
  limit: number,
) =>
  ex
    .selectFrom('outbox_events')
    .select(['event_type', 'payload', 'created_at_us'])
    .where('company_id', '=', scope.companyId)
    .where('environment', '=', scope.environment)
    .where('event_type', 'in', [...types])
    .where('target_endpoint_id', 'is', null)
    .where('payload', 'like', `{"allocationId":${JSON.stringify(allocationId)},%`)
    .orderBy('created_at_us', 'desc')
    .limit(limit)
    .execute();
