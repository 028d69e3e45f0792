import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AllocationRequestStatus, AllocationRequestsTable } from './allocations.table.js';

export async function insertRequest(ex: Executor, row: Insertable<AllocationRequestsTable>): Promise<void> {
  await ex.insertInto('allocation_requests').values(row).execute();
}

/** Requests with their grant's readable id and SKU code. */
const requestsWithGrant = (ex: Executor) =>
  ex
    .selectFrom('allocation_requests')
    .innerJoin('allocations', 'allocations.id', 'allocation_requests.allocation_id')
    .innerJoin('skus', 'skus.id', 'allocations.sku_id')
    .selectAll('allocation_requests')
    .select(['allocations.readable_id as allocation_readable_id', 'skus.code as sku_code']);

export const findRequest = (ex: Executor, id: string) =>
  requestsWithGrant(ex).where('allocation_requests.id', '=', id).executeTakeFirst();

/** Requests newest first (keyset on created_at, id): a seller's, or (operator) any, by status. */
export function findRequests(
  ex: Executor,
  sellerId: string | null,
  environment: string | null,
  after?: readonly [number, string],
  limit = 50,
  status?: string,
) {
  let query = requestsWithGrant(ex);
  if (sellerId) query = query.where('allocation_requests.seller_company_id', '=', sellerId);
  if (environment) query = query.where('allocation_requests.environment', '=', environment);
  if (status) query = query.where('allocation_requests.status', '=', status as AllocationRequestStatus);
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

/**
 * Resolves a pending request: one conditional update, so that of two decisions racing on one
 * request exactly one lands (the other finds it resolved). Answers whether this one did.
 */
export async function resolvePending(
  ex: Executor,
  id: string,
  outcome: { status: 'approved' | 'rejected'; approvedQuantity: number | null; reason: string; at: number },
): Promise<boolean> {
  const result = await ex
    .updateTable('allocation_requests')
    .set({
      status: outcome.status,
      approved_quantity: outcome.approvedQuantity,
      resolution_reason: outcome.reason,
      resolved_at: outcome.at,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
