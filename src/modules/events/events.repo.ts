import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CatalogChangesTable, OutboxEventsTable } from './events.table.js';

export async function insertEvents(ex: Executor, rows: Insertable<OutboxEventsTable>[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('outbox_events').values(rows).execute();
}

export async function insertCatalogChanges(
  ex: Executor,
  rows: Insertable<CatalogChangesTable>[],
): Promise<void> {
  if (rows.length > 0) await ex.insertInto('catalog_changes').values(rows).execute();
}
