import type { AppContext } from '../../context.js';
import { fail } from '../../http/errors.js';
import { isoOf, isoOrNull } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './allocation-requests.repo.js';
import { findAllocation } from './allocations.repo.js';
import { remainingOf, updateAllocation } from './allocations.service.js';

export interface AllocationRequestInput {
  grantId: string;
  requestedQuantity: number;
  declaredForecast?: number;
  publisherAvailableKeys?: number;
}

type RequestRow = repo.RequestRow;

export const requestView = (row: RequestRow) => ({
  id: row.id,
  grantId: row.allocation_id,
  allocationReadableId: row.allocation_readable_id,
  skuCode: row.sku_code,
  requestedQuantity: row.requested_quantity,
  declaredForecast: row.declared_forecast,
  publisherAvailableKeys: row.publisher_available_keys,
  status: row.status,
  resolution:
    row.status === 'pending'
      ? null
      : {
          approvedQuantity: row.approved_quantity,
          reason: row.resolution_reason,
          resolvedAt: isoOrNull(row.resolved_at),
        },
  createdAt: isoOf(row.created_at),
});

export async function listRequests(
  ctx: AppContext,
  sellerId: string,
  environment: string,
  limit: number,
  after?: readonly [number, string],
) {
  return repo.findRequests(ctx.db, sellerId, environment, after, limit + 1);
}

const alreadyResolved = (row: RequestRow) =>
  fail('ALLOCATION_REQUEST_RESOLVED', `Allocation request ${row.id} was already ${row.status}.`, {
    requestId: row.id,
    status: row.status,
    resolvedAt: isoOrNull(row.resolved_at),
    reason: row.resolution_reason,
  });

/**
 * The operator's decision on a pending request (docs/seller-reads.md,
 * "GET /allocations and increase requests").
 */
export type RequestDecision =
  | { decision: 'approve'; approvedQuantity?: number; reason?: string }
  | { decision: 'decline'; reason: string };

/**
 * Approves (the grant grows by the approved quantity, `allocation.updated` with it) or declines
 * a pending increase request, in one transaction; the seller's `GET /allocations/requests`
 * then shows the status, the decision time and the reason. A request already resolved, or
 * whose grant was revoked, is refused and nothing changes.
 */
export async function resolveRequest(ctx: AppContext, id: string, decision: RequestDecision) {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const request = await repo.findRequest(trx, id);
    if (!request) throw fail('NOT_FOUND', `No allocation request ${id}.`);
    if (request.status !== 'pending') throw alreadyResolved(request);
    // The grant's row lock first: the decision and the grant's new limit move together.
    const allocation = await findAllocation(trx, request.allocation_id, true);
    if (decision.decision === 'approve' && allocation?.status === 'revoked') {
      throw fail('ALLOCATION_NOT_AVAILABLE', 'The grant was revoked: decline the request instead.', {
        allocationId: request.allocation_id,
        reason: 'revoked',
      });
    }
    const approvedQuantity =
      decision.decision === 'approve' ? (decision.approvedQuantity ?? request.requested_quantity) : null;
    const resolved = await repo.resolvePending(trx, id, {
      status: decision.decision === 'approve' ? 'approved' : 'rejected',
      approvedQuantity,
      reason: decision.reason ?? 'approved_by_publisher',
      at: now,
    });
    // Another decision landed between the read and the update.
    if (!resolved) throw alreadyResolved((await repo.findRequest(trx, id)) ?? request);
    if (approvedQuantity !== null && allocation) {
      await updateAllocation(ctx, trx, allocation.id, {
        quantityLimit: allocation.quantity_limit + approvedQuantity,
      });
    }
  });
  return operatorRequestView((await repo.findRequest(ctx.db, id))!);
}

/** A request as the operator sees it: the seller's view, with whose it is. */
export const operatorRequestView = (row: RequestRow) => ({
  ...requestView(row),
  sellerCompanyId: row.seller_company_id,
  environment: row.environment,
});

/** Whether the publisher's `requestPolicy` takes increase requests at all: `none` rejects them. */
export const policyAllowsRequests = (policy: string): boolean => policy !== 'none';

/**
 * GET /availability `requestable`: the grant is active and used up, and its policy
 * takes requests. A paused or revoked grant is not exhausted, so it is never requestable.
 */
export const isRequestable = (allocation: {
  status: string;
  quantity_limit: number;
  quantity_pulled: number;
  request_policy: string;
}): boolean =>
  allocation.status === 'active' &&
  remainingOf(allocation) === 0 &&
  policyAllowsRequests(allocation.request_policy);

/**
 * POST /allocations/requests: asks the publisher for more on a grant. Under an `auto` policy a
 * request up to the publisher's auto-approve ceiling resolves at once (the grant grows, with its
 * events); `manual` waits for the publisher; `none` is rejected at once.
 */
export async function requestIncrease(
  ctx: AppContext,
  sellerId: string,
  environment: string,
  input: AllocationRequestInput,
) {
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await ctx.db.transaction().execute(async (trx) => {
    // An unknown grant is the seller's mistake (400); a database failure stays a 500.
    const allocation = await findAllocation(trx, input.grantId, true);
    if (!allocation || allocation.seller_company_id !== sellerId || allocation.environment !== environment) {
      throw fail('BAD_REQUEST', `grantId ${input.grantId} is not one of your allocations.`, {
        field: 'grantId',
        reason: 'unknown_grant',
      });
    }
    const policy = allocation.request_policy;
    const autoApproves =
      policy === 'auto' &&
      input.requestedQuantity <= (allocation.auto_approve_max ?? 0) &&
      allocation.status === 'active';
    const outcome = !policyAllowsRequests(policy)
      ? { status: 'rejected' as const, reason: 'publisher_policy_disallows_requests' }
      : autoApproves
        ? { status: 'approved' as const, reason: 'auto_approved' }
        : { status: 'pending' as const, reason: null };
    await repo.insertRequest(trx, {
      id,
      allocation_id: allocation.id,
      seller_company_id: sellerId,
      environment,
      requested_quantity: input.requestedQuantity,
      declared_forecast: input.declaredForecast ?? null,
      publisher_available_keys: input.publisherAvailableKeys ?? null,
      status: outcome.status,
      approved_quantity: outcome.status === 'approved' ? input.requestedQuantity : null,
      resolution_reason: outcome.reason,
      resolved_at: outcome.status === 'pending' ? null : now,
      created_at: now,
    });
    if (autoApproves) {
      await updateAllocation(ctx, trx, allocation.id, {
        quantityLimit: allocation.quantity_limit + input.requestedQuantity,
      });
    }
  });
  const [row] = (await repo.findRequests(ctx.db, sellerId, environment)).filter((r) => r.id === id);
  return requestView(row!);
}
