import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AllocationRequestsTable } from './allocations.table.js';

export async function insertRequest(ex: Executor, row: Insertable<AllocationRequestsTable>): Promise<void> {
  await ex.insertInto('allocation_requests').values(row).execute();
}

/** A seller's increase requests, newest first (keyset on created_at, id). */
export function findRequests(
  ex: Executor,
  sellerId: string,
  environment: string,
  after?: readonly [number, string],
  limit = 50,
) {
  let query = ex
    .selectFrom('allocation_requests')
    .innerJoin('allocations', 'allocations.id', 'allocation_requests.allocation_id')
    .innerJoin('skus', 'skus.id', 'allocations.sku_id')
    .selectAll('allocation_requests')
    .select(['allocations.readable_id as allocation_readable_id', 'skus.code as sku_code'])
    .where('allocation_requests.seller_company_id', '=', sellerId)
    .where('allocation_requests.environment', '=', environment);
  if (after) {
    const [createdAt, id] = after;
    query = query.where((eb) =>
      eb.or([
        eb('allocation_requests.created_at', '<', createdAt),
        eb.and([eb('allocation_requests.created_at', '=', createdAt), eb('allocation_requests.id', '<', id)]),
      ]),
    );
  }
  return query
    .orderBy('allocation_requests.created_at', 'desc')
    .orderBy('allocation_requests.id', 'desc')
    .limit(limit)
    .execute();
}

export type RequestRow = Awaited<ReturnType<typeof findRequests>>[number];
