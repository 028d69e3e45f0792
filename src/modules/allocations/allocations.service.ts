import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { readableId, uuidv7 } from '../../lib/ids.js';
import { requireSku } from '../catalog/index.js';
import { emit, emitEventList, type PendingEvent, recordCatalogChange } from '../events/index.js';
import * as repo from './allocations.repo.js';
import type { AllocationStatus } from './allocations.table.js';
import type { RefundPolicyTerms } from './refund-policy.js';
import { refreshSellability } from './sellability.service.js';
import { requireSkuOfConnection } from './shares.service.js';

export interface AllocationTerms {
  quantityLimit?: number;
  pricePerKeyCents?: number | null;
  currencyCode?: string | null;
  currencyExponent?: number | null;
  businessModel?: string;
  paymentStatus?: string;
  hotDrop?: boolean;
  reservationMaxQuantity?: number;
  holdsEnabled?: boolean;
  lowStockThreshold?: number | null;
  refundPolicy?: Partial<RefundPolicyTerms> | null;
  consumerGeoAttestRequired?: boolean;
  replacementPolicy?: { maxPerOrder: number; windowDays: number } | null;
  requestPolicy?: 'none' | 'manual' | 'auto';
  autoApproveMax?: number | null;
}

export const remainingOf = (a: Pick<repo.AllocationRow, 'quantity_limit' | 'quantity_pulled'>) =>
  Math.max(0, a.quantity_limit - a.quantity_pulled);

/** With `lock`, for a change derived from the current row: concurrent changes queue behind it. */
export async function requireAllocation(ex: Executor, id: string, lock = false): Promise<repo.AllocationRow> {
  const allocation = await repo.findAllocation(ex, id, lock);
  if (!allocation) throw fail('NOT_FOUND', `No allocation ${id}.`);
  return allocation;
}

function termsToColumns(terms: AllocationTerms) {
  const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
  const columns = {
    quantity_limit: terms.quantityLimit,
    price_per_key_cents: terms.pricePerKeyCents,
    currency_code: terms.currencyCode === undefined ? undefined : (terms.currencyCode?.toUpperCase() ?? null),
    currency_exponent: terms.currencyExponent,
    business_model: terms.businessModel,
    payment_status: terms.paymentStatus,
    hot_drop: bool(terms.hotDrop),
    reservation_max_quantity: terms.reservationMaxQuantity,
    holds_enabled: bool(terms.holdsEnabled),
    low_stock_threshold: terms.lowStockThreshold,
    refund_policy:
      terms.refundPolicy === undefined
        ? undefined
        : terms.refundPolicy
          ? JSON.stringify(terms.refundPolicy)
          : null,
    consumer_geo_attest_required: bool(terms.consumerGeoAttestRequired),
    replacement_policy:
      terms.replacementPolicy === undefined
        ? undefined
        : terms.replacementPolicy
          ? JSON.stringify(terms.replacementPolicy)
          : null,
    request_policy: terms.requestPolicy,
    auto_approve_max: terms.autoApproveMax,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

/**
 * Capacity events after `remaining` moved (publisher edits here, pulls in checkout):
 * `allocation.low_stock` when it crosses the threshold, `allocation.depleted` at zero.
 */
export function capacityEvents(
  allocation: repo.AllocationRow,
  skuCode: string,
  remainingBefore: number,
  remainingAfter: number,
): PendingEvent[] {
  const recipients = [{ companyId: allocation.seller_company_id, environment: allocation.environment }];
  const base = { allocationId: allocation.id, skuCode, remaining: remainingAfter };
  const threshold = allocation.low_stock_threshold;
  const events: PendingEvent[] = [];
  if (
    threshold !== null &&
    remainingBefore > threshold &&
    remainingAfter <= threshold &&
    remainingAfter > 0
  ) {
    events.push({ recipients, eventType: 'allocation.low_stock', data: { ...base, threshold } });
  }
  if (remainingBefore > 0 && remainingAfter === 0) {
    events.push({ recipients, eventType: 'allocation.depleted', data: base });
  }
  return events;
}

export async function emitCapacityEvents(
  ctx: AppContext,
  trx: Executor,
  allocation: repo.AllocationRow,
  skuCode: string,
  remainingBefore: number,
  remainingAfter: number,
): Promise<void> {
  await emitEventList(ctx, trx, capacityEvents(allocation, skuCode, remainingBefore, remainingAfter));
}

export async function grantAllocation(
  ctx: AppContext,
  trx: Executor,
  connectionId: string,
  skuId: string,
  terms: AllocationTerms,
) {
  const { connection, sku, product } = await requireSkuOfConnection(trx, connectionId, skuId);
  if (terms.quantityLimit === undefined) throw fail('VALIDATION_FAILED', 'quantityLimit is required.');
  const now = ctx.clock.now();
  const id = uuidv7(now);
  await repo.insertAllocation(trx, {
    id,
    readable_id: readableId('alloc'),
    seller_company_id: connection.seller_company_id,
    publisher_company_id: connection.publisher_company_id,
    connection_id: connection.id,
    environment: connection.environment,
    sku_id: skuId,
    quantity_limit: terms.quantityLimit,
    business_model: terms.businessModel ?? 'api',
    status: 'active',
    payment_status: terms.paymentStatus ?? 'invoiced',
    request_policy: terms.requestPolicy ?? 'manual',
    created_at: now,
    updated_at: now,
    ...termsToColumns(terms),
  });
  const allocation = await requireAllocation(trx, id);
  await emit(
    ctx,
    trx,
    [{ companyId: allocation.seller_company_id, environment: allocation.environment }],
    'allocation.updated',
    {
      allocationId: id,
      skuCode: sku.code,
      remaining: remainingOf(allocation),
    },
  );
  await afterAllocationChange(ctx, trx, allocation, product.id);
  return allocation;
}

async function afterAllocationChange(
  ctx: AppContext,
  trx: Executor,
  allocation: repo.AllocationRow,
  productId: string,
) {
  const seller = [{ companyId: allocation.seller_company_id, environment: allocation.environment }];
  await recordCatalogChange(ctx, trx, seller, productId, 'updated', ['availability']);
  await refreshSellability(ctx, trx, allocation.seller_company_id, allocation.environment, [
    allocation.sku_id,
  ]);
}

/** Changes the terms of a grant: capacity or metadata; `allocation.updated` plus capacity events. */
export async function updateAllocation(ctx: AppContext, trx: Executor, id: string, terms: AllocationTerms) {
  const before = await requireAllocation(trx, id, true);
  if (terms.quantityLimit !== undefined && terms.quantityLimit < before.quantity_pulled) {
    throw fail(
      'VALIDATION_FAILED',
      `quantityLimit cannot go below the ${before.quantity_pulled} keys already pulled.`,
      {
        issues: [
          {
            field: 'quantityLimit',
            in: 'body',
            message: `must be >= ${before.quantity_pulled}`,
            keyword: 'minimum',
          },
        ],
      },
    );
  }
  await repo.updateAllocation(trx, id, { ...termsToColumns(terms), updated_at: ctx.clock.now() });
  const after = await requireAllocation(trx, id);
  if (before.hot_drop === 1 && after.hot_drop === 0) await ctx.promises.hotDropEnded(trx, id);
  const sku = await requireSku(trx, after.sku_id);
  const seller = [{ companyId: after.seller_company_id, environment: after.environment }];
  await emit(ctx, trx, seller, 'allocation.updated', {
    allocationId: id,
    skuCode: sku.code,
    remaining: remainingOf(after),
  });
  await emitCapacityEvents(ctx, trx, after, sku.code, remainingOf(before), remainingOf(after));
  await afterAllocationChange(ctx, trx, after, sku.product_id);
  return after;
}

const MOVES: Record<AllocationStatus, AllocationStatus[]> = {
  active: ['paused', 'revoked'],
  paused: ['active', 'revoked'],
  revoked: [],
};
const REASONS: Record<AllocationStatus, string> = { paused: 'paused', revoked: 'revoked', active: 'resumed' };

/** Pauses, resumes or revokes a grant; `allocation.updated` carries the reason. */
export async function setAllocationStatus(
  ctx: AppContext,
  trx: Executor,
  id: string,
  status: AllocationStatus,
) {
  const before = await requireAllocation(trx, id, true);
  if (before.status === status) return before;
  if (!MOVES[before.status].includes(status)) {
    throw fail('VALIDATION_FAILED', `An allocation cannot move from ${before.status} to ${status}.`);
  }
  await repo.updateAllocation(trx, id, { status, updated_at: ctx.clock.now() });
  if (status !== 'active') await ctx.promises.grantStopped(trx, id);
  const after = await requireAllocation(trx, id);
  const sku = await requireSku(trx, after.sku_id);
  await emit(
    ctx,
    trx,
    [{ companyId: after.seller_company_id, environment: after.environment }],
    'allocation.updated',
    {
      allocationId: id,
      skuCode: sku.code,
      remaining: remainingOf(after),
      reason: REASONS[status],
    },
  );
  await afterAllocationChange(ctx, trx, after, sku.product_id);
  return after;
}

/**
 * The events of a pull that moved the counter to `after` (`allocation.updated` and the capacity
 * events); checkout writes them with the order's own event in one insert.
 */
export function pullEvents(after: repo.AllocationRow, skuCode: string, count: number): PendingEvent[] {
  const recipients = [{ companyId: after.seller_company_id, environment: after.environment }];
  const remaining = remainingOf(after);
  return [
    {
      recipients,
      eventType: 'allocation.updated',
      data: { allocationId: after.id, skuCode, remaining },
    },
    ...capacityEvents(after, skuCode, remaining + count, remaining),
  ];
}

/**
 * Checkout pulled `count` keys against a grant whose row the caller holds locked: the counter
 * moves in the same transaction.
 */
export async function recordPull(
  trx: Executor,
  locked: repo.AllocationRow,
  count: number,
  now: number,
): Promise<repo.AllocationRow> {
  const after = { ...locked, quantity_pulled: locked.quantity_pulled + count, updated_at: now };
  await repo.updateAllocation(trx, locked.id, { quantity_pulled: after.quantity_pulled, updated_at: now });
  return after;
}

/**
 * A new promise (a checkout hold, an accepted pre-order) on a grant whose row the caller holds
 * locked: orders that read the promises before it will find `promise_version` moved and look
 * again under the lock.
 */
export async function recordPromise(trx: Executor, locked: repo.AllocationRow): Promise<void> {
  await repo.updateAllocation(trx, locked.id, { promise_version: locked.promise_version + 1 });
}

/**
 * Checkout's fast path, one statement and the last of its transaction: moves the counter of an
 * active grant with the headroom for `count`, provided no promise was placed on it since the
 * order read `promiseVersion` (the row lock is taken here and held only to the commit).
 * Undefined when any of that does not hold: the caller then takes the locked path.
 */
export const pullUnlessPromised = repo.pullUnlessPromised;

/**
 * A hot-drop commit's fast path, one statement: moves the counter of an active grant still in
 * hot-drop mode with the headroom for `count`. No `promise_version` check: the units were
 * carved for the reservation, and moving them from carved to pulled leaves every other
 * promise's bound as it was (docs/hot-drops.md, "Commit"). Undefined when any of that does not
 * hold: the caller then takes the locked path, which names the refusal.
 */
export const pullReserved = repo.pullReserved;

/**
 * Keys handed back unrevealed went back to the grant's pools: the counter moves back by
 * `count` under the grant's row lock (taken last, as checkout does), with `allocation.updated`.
 * Quarantined keys never come back, so they never move it (docs/after-sale.md).
 */
export async function recordRestock(
  ctx: AppContext,
  trx: Executor,
  allocationId: string,
  skuCode: string,
  count: number,
): Promise<repo.AllocationRow> {
  const locked = await requireAllocation(trx, allocationId, true);
  const now = ctx.clock.now();
  const after = { ...locked, quantity_pulled: Math.max(0, locked.quantity_pulled - count), updated_at: now };
  await repo.updateAllocation(trx, locked.id, { quantity_pulled: after.quantity_pulled, updated_at: now });
  await emit(
    ctx,
    trx,
    [{ companyId: locked.seller_company_id, environment: locked.environment }],
    'allocation.updated',
    { allocationId: locked.id, skuCode, remaining: remainingOf(after) },
  );
  return after;
}
