import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { PromotionsTable } from './promotions.table.js';

export async function insertPromotion(ex: Executor, row: Insertable<PromotionsTable>): Promise<void> {
  await ex.insertInto('promotions').values(row).execute();
}
