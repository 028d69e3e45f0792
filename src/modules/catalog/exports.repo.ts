import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { CatalogExportsTable } from './exports.table.js';

export async function insertExport(ex: Executor, row: Insertable<CatalogExportsTable>): Promise<void> {
  await ex.insertInto('catalog_exports').values(row).execute();
}

/**
 * Settles a job that is still pending (built, failed, or given up as interrupted); false when
 * it was settled already, so a late build cannot revive a job given up on.
 */
export async function settlePendingExport(
  ex: Executor,
  id: string,
  patch: Updateable<CatalogExportsTable>,
): Promise<boolean> {
  const result = await ex
    .updateTable('catalog_exports')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An export without its artifact bytes. */
export function findExport(ex: Executor, id: string) {
  return ex
    .selectFrom('catalog_exports')
    .select([
      'id',
      'seller_company_id',
      'environment',
      'status',
      'checksum',
      'bytes',
      'total_products',
      'error',
      'created_at',
      'completed_at',
      'expires_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findArtifact(ex: Executor, id: string) {
  return ex
    .selectFrom('catalog_exports')
    .select(['artifact', 'expires_at', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}
