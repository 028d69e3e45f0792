import type { AppContext } from '../../context.js';
import { isoOf } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { type AuditBy, recordAudit } from '../audit/index.js';
import type { SellerActor } from '../checkout/index.js';
import { adjustKeys, type KeyPlan } from './adjustments.service.js';
import { refuseDuplicates } from './key-checks.js';
import { isRevealed, policiesOf, policyRefusal } from './refund-policy.js';
import { completeRefund, openRefund } from './refund-record.js';
import { refundView } from './refund-view.js';

export interface ReturnBody {
  keyIds: string[];
  reason: string;
}

/**
 * POST /keys/return: the seller hands keys back. A key never revealed goes back to its pool for
 * resale and its sale (if any) is reversed; a revealed key goes to quarantine, and its sale is
 * reversed only where the grant's refund policy allows money back. Never refused for the
 * policy: a seller may always hand a key back. All or nothing, exactly once per key. Given an
 * order (the console's order page), every key must be that order's.
 */
export async function returnKeys(
  ctx: AppContext,
  actor: SellerActor,
  by: AuditBy,
  body: ReturnBody,
  withinOrderId?: string,
) {
  refuseDuplicates(body.keyIds);
  const keyIds = [...body.keyIds].sort();
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const returnId = uuidv7(now);
    const done = await adjustKeys(ctx, trx, {
      actor,
      source: 'return',
      keyIds: body.keyIds,
      reason: body.reason,
      at: now,
      refundId: null,
      returnId,
      ...(withinOrderId ? { withinOrderId } : {}),
      plan: async (tx, keys, at) => {
        const policies = await policiesOf(tx, keys);
        return keys.map((owned): KeyPlan => {
          if (!isRevealed(owned.order)) return { owned, outcome: 'restocked', reverse: true };
          const policy = policies.get(owned.order.allocation_id)!;
          return { owned, outcome: 'quarantined', reverse: policyRefusal(policy, owned, at) === null };
        });
      },
      openRefund: (tx) =>
        openRefund(tx, actor, {
          type: 'refund',
          source: 'return',
          reference: null,
          keyIds: [],
          reason: body.reason,
          at: now,
        }),
    });
    const refund = done.refundId ? refundView(await completeRefund(trx, done.refundId, done)) : null;
    await recordAudit(
      ctx,
      {
        companyId: actor.sellerId,
        ...by,
        action: 'keys.returned',
        target: returnId,
        detail: {
          environment: actor.environment,
          keyIds,
          reason: body.reason,
          refundId: refund?.refundId ?? null,
          amounts: refund?.amounts ?? [],
        },
      },
      trx,
    );
    const byOrder = new Map<string, KeyPlan[]>();
    for (const p of done.plans)
      byOrder.set(p.owned.order.order_reference, [...(byOrder.get(p.owned.order.order_reference) ?? []), p]);
    return {
      returnId,
      keyIds,
      returned: keyIds.length,
      reason: body.reason,
      orders: [...byOrder.entries()].map(([orderReference, group]) => ({
        orderReference,
        keyIds: group.map((p) => p.owned.key.id),
        restocked: group.filter((p) => p.outcome === 'restocked').map((p) => p.owned.key.id),
        quarantined: group.filter((p) => p.outcome === 'quarantined').map((p) => p.owned.key.id),
      })),
      refund,
      createdAt: isoOf(now),
    };
  });
}
