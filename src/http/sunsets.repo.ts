import type { Executor } from '../db/database.js';

/** Every published sunset, by contract date. */
export const allSunsets = (ex: Executor) =>
  ex.selectFrom('contract_sunsets').selectAll().orderBy('contract_date').execute();

/** Publishes a sunset, or moves a published one to `sunset_at` (it keeps its publication instant). */
export async function upsertSunset(
  ex: Executor,
  row: { contract_date: string; sunset_at: number; published_at: number },
): Promise<void> {
  await ex
    .insertInto('contract_sunsets')
    .values(row)
    .onConflict((oc) => oc.column('contract_date').doUpdateSet({ sunset_at: row.sunset_at }))
    .execute();
}

/** Withdraws a sunset; false when none was published for the date. */
export async function deleteSunset(ex: Executor, contractDate: string): Promise<boolean> {
  const result = await ex
    .deleteFrom('contract_sunsets')
    .where('contract_date', '=', contractDate)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
