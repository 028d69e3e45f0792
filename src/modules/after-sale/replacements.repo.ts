import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { KeyReplacementsTable } from './after-sale.table.js';

export async function insertReplacement(ex: Executor, row: Insertable<KeyReplacementsTable>): Promise<void> {
  await ex.insertInto('key_replacements').values(row).execute();
}

export async function replacementsOfOrder(ex: Executor, orderId: string): Promise<number> {
  const row = await ex
    .selectFrom('key_replacements')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
