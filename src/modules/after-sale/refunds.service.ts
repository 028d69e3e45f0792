import type { AppContext } from '../../context.js';
import { type Executor, isUniqueViolation } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { type AuditBy, recordAudit } from '../audit/index.js';
import { referenceOwner, type SellerActor } from '../checkout/index.js';
import { adjustKeys } from './adjustments.service.js';
import * as repo from './after-sale.repo.js';
import type { AdjustmentType } from './after-sale.table.js';
import { refuseDuplicates, refuseKeysOfOtherOrders } from './key-checks.js';
import { enforceRefundPolicy } from './refund-policy.js';
import { completeRefund, digestOf, openRefund } from './refund-record.js';
import { refundView } from './refund-view.js';

export interface RefundBody {
  type: AdjustmentType;
  refundReference?: string;
  chargebackReference?: string;
  keyIds: string[];
  reason?: string;
}

const REFERENCE_FIELD = { refund: 'refundReference', chargeback: 'chargebackReference' } as const;

/** The reference field matching the type is required; the other one is refused, not ignored. */
function referenceOf(body: RefundBody): string {
  const field = REFERENCE_FIELD[body.type];
  const other = REFERENCE_FIELD[body.type === 'refund' ? 'chargeback' : 'refund'];
  if (body[other] !== undefined) {
    throw fail('VALIDATION_FAILED', `${other} does not go with type ${body.type}; send ${field}.`, {
      issues: [{ field: other, in: 'body', message: `not allowed with type ${body.type}`, keyword: 'type' }],
    });
  }
  const reference = body[field];
  if (reference === undefined) {
    throw fail('VALIDATION_FAILED', `${field} is required for type ${body.type}.`, {
      issues: [{ field, in: 'body', message: `required for type ${body.type}`, keyword: 'required' }],
    });
  }
  return reference;
}

/**
 * The same reference replays its adjustment when it names the same keys; other keys conflict.
 * Addressed to one order, the replayed keys must have been taken back from that order.
 */
async function replayOrConflict(
  ctx: AppContext,
  existing: repo.RefundRow,
  body: RefundBody,
  reference: string,
  withinOrderId: string | undefined,
) {
  if (existing.key_set_digest !== digestOf(body.keyIds)) {
    throw fail(
      'REFUND_REFERENCE_CONFLICT',
      `${REFERENCE_FIELD[body.type]} ${reference} was used for other keys.`,
      {
        [REFERENCE_FIELD[body.type]]: reference,
        refundId: existing.id,
        existingKeyIds: JSON.parse(existing.key_ids) as string[],
      },
    );
  }
  if (withinOrderId) {
    const taken = await repo.keysOfRefund(ctx.db, existing.id);
    const takenFrom = taken.map((row) => ({ id: row.key_id, order_id: row.order_id }));
    refuseKeysOfOtherOrders(body.keyIds, takenFrom, [], withinOrderId);
  }
  return { view: refundView(existing), replayed: true };
}

/**
 * POST /refunds: quarantines delivered keys and reverses their sale lines, exactly once per
 * reference. A concurrent request with the same reference waits on the reference's unique
 * index while the first runs, then replays it (or conflicts). Given an order (the console's
 * order page), every key must be that order's.
 */
export async function createRefund(
  ctx: AppContext,
  actor: SellerActor,
  by: AuditBy,
  body: RefundBody,
  withinOrderId?: string,
) {
  const reference = referenceOf(body);
  refuseDuplicates(body.keyIds);
  const owner = referenceOwner(actor);
  const find = () => repo.findByReference(ctx.db, actor.environment, owner, body.type, reference);
  const existing = await find();
  if (existing) return replayOrConflict(ctx, existing, body, reference, withinOrderId);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const at = ctx.clock.now();
      const reason = body.reason ?? null;
      const opening = { type: body.type, source: body.type, reference, keyIds: body.keyIds, reason, at };
      const id = await openRefund(trx, actor, opening);
      const done = await adjustKeys(ctx, trx, {
        actor,
        source: body.type,
        keyIds: body.keyIds,
        reason,
        at,
        refundId: id,
        returnId: null,
        ...(withinOrderId ? { withinOrderId } : {}),
        plan: async (tx, keys, now) => {
          if (body.type === 'refund') await enforceRefundPolicy(tx, keys, now);
          return keys.map((owned) => ({ owned, outcome: 'quarantined', reverse: true }));
        },
      });
      const completed = await completeRefund(trx, id, done);
      await auditRefund(ctx, trx, actor, by, completed);
      return completed;
    });
    return { view: refundView(row), replayed: false };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await find();
    if (!winner) throw err;
    return replayOrConflict(ctx, winner, body, reference, withinOrderId);
  }
}

/** Money moved back: `refund.created` or `chargeback.created`, in the same transaction. */
function auditRefund(ctx: AppContext, trx: Executor, actor: SellerActor, by: AuditBy, row: repo.RefundRow) {
  const view = refundView(row);
  return recordAudit(
    ctx,
    {
      companyId: actor.sellerId,
      ...by,
      action: `${row.adjustment_type}.created`,
      target: row.id,
      detail: {
        environment: actor.environment,
        reference: row.reference,
        orderReferences: view.orderReferences,
        keyIds: view.keyIds,
        amounts: view.amounts,
      },
    },
    trx,
  );
}

export type RefundQuery = Omit<repo.RefundListFilter, keyof repo.RefundScope>;

const scopeOf = (actor: SellerActor) => ({
  sellerId: actor.sellerId,
  environment: actor.environment,
  owner: referenceOwner(actor),
});

/** GET /refunds: newest first; in sandbox only the calling API key's adjustments. */
export async function listRefunds(ctx: AppContext, actor: SellerActor, q: RefundQuery) {
  return repo.listRefunds(ctx.db, { ...scopeOf(actor), ...q });
}

/** GET /refunds/{refundId}: another company's (or sandbox key's) adjustment is 404. */
export async function getRefund(ctx: AppContext, actor: SellerActor, refundId: string) {
  const row = await repo.findRefund(ctx.db, scopeOf(actor), refundId);
  if (!row) throw fail('NOT_FOUND', `No refund ${refundId}.`);
  return refundView(row);
}
