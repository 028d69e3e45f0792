import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { recordRestock } from '../allocations/index.js';
import { lockOrders, releaseOrderReference, type SellerActor } from '../checkout/index.js';
import { emit } from '../events/index.js';
import { type MovedAmounts, originalSalesOf, recordReversal } from '../finance/index.js';
import { lockKeys, quarantineKeys, restockKeys } from '../inventory/index.js';
import * as repo from './after-sale.repo.js';
import type { AdjustmentSource, AdjustmentType, KeyOutcome } from './after-sale.table.js';
import { type OwnedKey, ownedKeys, refuseKeysOfOtherOrders } from './key-checks.js';

/** What happens to one key: where it goes, and whether its sale is reversed. */
export interface KeyPlan {
  owned: OwnedKey;
  outcome: KeyOutcome;
  reverse: boolean;
}

export interface Adjustment {
  actor: SellerActor;
  source: AdjustmentSource;
  /** As the seller sent them: refusals name ids in this order (locks are taken in id order). */
  keyIds: readonly string[];
  reason: string | null;
  /** The declaration's instant: every row the adjustment writes carries it. */
  at: number;
  /** The refund row this adjustment fills in (POST /refunds inserts it first), if any. */
  refundId: string | null;
  returnId: string | null;
  /** Decides each key's fate once the keys are locked and known to be the caller's. */
  plan: (trx: Executor, keys: OwnedKey[], now: number) => Promise<KeyPlan[]>;
  /** Set when the action was addressed to one order: every key must be that order's. */
  withinOrderId?: string;
  /** A return that moves money opens its refund row here. */
  openRefund?: (trx: Executor) => Promise<string>;
}

export interface AdjustmentResult {
  refundId: string | null;
  plans: KeyPlan[];
  amounts: Amount[];
  reversalIds: string[];
  orderReferences: string[];
}

export interface Amount {
  currencyCode: string;
  grossCents: number;
  wholesaleCents: number;
}

/** Sums what reversals moved per currency: gross in the sale currency, wholesale in its own. */
function sumAmounts(moved: readonly MovedAmounts[]): Amount[] {
  const by = new Map<string, Amount>();
  const at = (currencyCode: string) => {
    const amount = by.get(currencyCode) ?? { currencyCode, grossCents: 0, wholesaleCents: 0 };
    by.set(currencyCode, amount);
    return amount;
  };
  for (const m of moved) {
    at(m.currencyCode).grossCents += m.grossCents;
    if (m.wholesaleCurrencyCode) at(m.wholesaleCurrencyCode).wholesaleCents += m.wholesaleCents;
  }
  return [...by.values()].sort((a, b) => (a.currencyCode < b.currencyCode ? -1 : 1));
}

const groupBy = <T>(items: readonly T[], keyOf: (item: T) => string) => {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
};

/**
 * One refund, chargeback or return inside the caller's transaction, all or nothing: lock the
 * keys (id order), then their orders (id order); judge every id; move each key to quarantine or
 * back to stock; reverse the sale lines of keys whose money moves; free the reference of an
 * order taken back in full; queue the events; last, give restocked keys' capacity back to
 * their grants under the grant's row lock (the order checkout takes its locks in).
 */
export async function adjustKeys(ctx: AppContext, trx: Executor, a: Adjustment): Promise<AdjustmentResult> {
  const now = a.at;
  const keys = await lockKeys(trx, a.keyIds);
  const orderIds = [...new Set(keys.flatMap((k) => (k.order_id ? [k.order_id] : [])))];
  const orders = new Map((await lockOrders(trx, orderIds)).map((o) => [o.id, o]));
  const taken = await repo.adjustedKeys(trx, a.keyIds);
  const adjusted = new Map(taken.map((r) => [`${r.order_id}:${r.key_id}`, r.cause]));
  // A key this seller returned to stock belongs to no order now: it is named as returned.
  for (const r of taken) {
    const mine = r.seller_company_id === a.actor.sellerId && r.environment === a.actor.environment;
    if (mine && r.outcome === 'restocked') adjusted.set(`restocked:${r.key_id}`, r.cause);
  }
  if (a.withinOrderId) refuseKeysOfOtherOrders(a.keyIds, keys, taken, a.withinOrderId);
  const owned = ownedKeys(a.keyIds, keys, orders, adjusted, a.actor);
  const plans = await a.plan(trx, owned, now);

  const reversing = plans.filter((p) => p.reverse);
  const refundId = a.refundId ?? (reversing.length > 0 && a.openRefund ? await a.openRefund(trx) : null);
  await quarantineKeys(
    trx,
    plans.filter((p) => p.outcome === 'quarantined').map((p) => p.owned.key.id),
  );
  await restockKeys(
    trx,
    plans.filter((p) => p.outcome === 'restocked').map((p) => p.owned.key.id),
  );
  await repo.insertRefundKeys(
    trx,
    plans.map(({ owned: { key, order }, outcome, reverse }) => ({
      order_id: order.id,
      key_id: key.id,
      seller_company_id: order.seller_company_id,
      environment: order.environment,
      order_reference: order.order_reference,
      publisher_company_id: order.publisher_company_id,
      sku_code: order.sku_code,
      refund_id: reverse ? refundId : null,
      return_id: a.returnId,
      cause: a.source,
      outcome,
      reason: a.reason,
      reinstated_at: null,
      created_at: now,
    })),
  );

  const kind: AdjustmentType = a.source === 'chargeback' ? 'chargeback' : 'refund';
  const sales = new Map((await originalSalesOf(trx, orderIds)).map((s) => [s.order_id, s]));
  const moved: MovedAmounts[] = [];
  for (const [orderId, group] of groupBy(reversing, (p) => p.owned.order.id)) {
    const sale = sales.get(orderId);
    if (sale) moved.push(await recordReversal(trx, sale, group.length, kind, now));
  }

  const byOrder = groupBy(plans, (p) => p.owned.order.id);
  const counts = new Map(
    (await repo.adjustedCounts(trx, [...byOrder.keys()])).map((r) => [r.order_id, Number(r.n)]),
  );
  const seller = [{ companyId: a.actor.sellerId, environment: a.actor.environment }];
  for (const [orderId, group] of byOrder) {
    const order = group[0]!.owned.order;
    if ((counts.get(orderId) ?? 0) >= order.pulled && order.pulled > 0)
      await releaseOrderReference(trx, order, refundId ?? a.returnId ?? orderId, now);
    if (a.returnId) {
      await emit(ctx, trx, seller, 'order.keys_returned', {
        orderReference: order.order_reference,
        keyIds: group.map((p) => p.owned.key.id),
        returned: group.length,
        reason: a.reason,
      });
    }
    if (refundId && group.some((p) => p.reverse || a.source !== 'return')) {
      await emit(ctx, trx, seller, 'refund.completed', {
        orderReference: order.order_reference,
        refundId,
        adjustmentType: kind,
        adjustmentStatus: 'completed',
      });
    }
  }

  const restocked = plans.filter((p) => p.outcome === 'restocked');
  for (const [allocationId, group] of groupBy(restocked, (p) => p.owned.order.allocation_id)) {
    await recordRestock(ctx, trx, allocationId, group[0]!.owned.order.sku_code, group.length);
  }
  return {
    refundId,
    plans,
    amounts: sumAmounts(moved),
    reversalIds: moved.map((m) => m.lineId),
    orderReferences: [...new Set(plans.map((p) => p.owned.order.order_reference))].sort(),
  };
}
