import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { lockRows } from '../../../db/dialect.js';
import type { CheckoutHoldsTable, HoldStatus } from '../checkout.table.js';

export type HoldRow = Selectable<CheckoutHoldsTable>;

export async function insertHold(ex: Executor, row: Insertable<CheckoutHoldsTable>): Promise<void> {
  await ex.insertInto('checkout_holds').values(row).execute();
}

/** With `lock`, the hold cannot be released or consumed elsewhere until the transaction ends. */
export function findHold(ex: Executor, id: string, lock = false): Promise<HoldRow | undefined> {
  const query = ex.selectFrom('checkout_holds').selectAll().where('id', '=', id);
  return (lock ? lockRows(ex, query) : query).executeTakeFirst();
}

/** Ends a live hold (consumed or released); false when it had already ended. */
export async function endLiveHold(
  ex: Executor,
  id: string,
  status: Exclude<HoldStatus, 'active'>,
  now: number,
): Promise<boolean> {
  const result = await ex
    .updateTable('checkout_holds')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels the live holds of an allocation; returns how many. */
export async function cancelLiveHolds(ex: Executor, allocationId: string, now: number): Promise<number> {
  const result = await ex
    .updateTable('checkout_holds')
    .set({ status: 'cancelled', updated_at: now })
    .where('allocation_id', '=', allocationId)
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
