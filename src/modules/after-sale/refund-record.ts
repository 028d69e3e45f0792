import type { Executor } from '../../db/database.js';
import { sha256Hex } from '../../lib/crypto.js';
import { uuidv7 } from '../../lib/ids.js';
import { referenceOwner, type SellerActor } from '../checkout/index.js';
import type { AdjustmentResult } from './adjustments.service.js';
import * as repo from './after-sale.repo.js';
import type { AdjustmentSource, AdjustmentType } from './after-sale.table.js';

/** The key set a reference is bound to, whatever order the ids were sent in. */
export const digestOf = (keyIds: readonly string[]) => sha256Hex([...keyIds].sort().join('\n'));

export interface RefundOpening {
  type: AdjustmentType;
  source: AdjustmentSource;
  reference: string | null;
  keyIds: readonly string[];
  reason: string | null;
  at: number;
}

/**
 * Inserts the adjustment row first thing in its transaction: its reference's unique index makes
 * a concurrent duplicate wait. What it moved is filled in by `completeRefund`.
 */
export async function openRefund(trx: Executor, actor: SellerActor, o: RefundOpening): Promise<string> {
  const id = uuidv7(o.at);
  await repo.insertRefund(trx, {
    id,
    seller_company_id: actor.sellerId,
    environment: actor.environment,
    api_key_id: actor.apiKeyId,
    reference_owner: referenceOwner(actor),
    adjustment_type: o.type,
    source: o.source,
    reference: o.reference,
    key_set_digest: digestOf(o.keyIds),
    key_ids: JSON.stringify([...o.keyIds].sort()),
    order_references: '[]',
    amounts: '[]',
    reversal_ids: '[]',
    reason: o.reason,
    reinstated_at: null,
    created_at: o.at,
  });
  return id;
}

/** Records what the adjustment moved (its keys whose money moved, orders, amounts, reversal rows). */
export async function completeRefund(trx: Executor, id: string, done: AdjustmentResult) {
  const moved = done.plans.filter((p) => p.reverse);
  const keyIds = moved.map((p) => p.owned.key.id).sort();
  await repo.updateRefund(trx, id, {
    key_set_digest: digestOf(keyIds),
    key_ids: JSON.stringify(keyIds),
    order_references: JSON.stringify([...new Set(moved.map((p) => p.owned.order.order_reference))].sort()),
    amounts: JSON.stringify(done.amounts),
    reversal_ids: JSON.stringify(done.reversalIds),
  });
  return (await repo.findRefundById(trx, id))!;
}
