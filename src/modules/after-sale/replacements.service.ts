import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { replacementPolicyOf, replacementRefusal, requireAllocation } from '../allocations/index.js';
import { type AuditBy, recordAudit } from '../audit/index.js';
import {
  type AdjustableOrder,
  activityEntryOf,
  lockOrders,
  promisedOnAllocation,
  type SellerActor,
} from '../checkout/index.js';
import { emit } from '../events/index.js';
import { recordActivity } from '../finance/index.js';
import { claimKeys, lockKeys, openKeys, quarantineKeys, stockUpTo } from '../inventory/index.js';
import { deliveredTo, refuseKeysOfOtherOrders } from './key-checks.js';
import * as repo from './replacements.repo.js';

export interface ReplaceBody {
  keyId: string;
  reason?: string;
}

const badKey = (why: string) =>
  fail('VALIDATION_FAILED', `keyId ${why}; nothing was changed.`, {
    issues: [{ field: 'keyId', in: 'body', message: why, keyword: 'key' }],
  });

/** The key is the caller's, delivered (in the response, or revealed later), and still sold. */
function checkReplaceable(
  key: { state: string } | undefined,
  order: AdjustableOrder | undefined,
  actor: SellerActor,
) {
  if (!key || !order || !deliveredTo(order, actor)) throw badKey('is not a key delivered to you');
  if (key.state !== 'sold') throw badKey('was already replaced, refunded or returned');
  if (order.delivery === 'keyless') {
    throw badKey('belongs to a keyless order: regenerate its redemption link, or refund it');
  }
  if (order.delivery !== 'keys' && order.revealed_at === null) throw badKey('was never revealed');
}

/**
 * POST /keys/replace (docs/after-sale.md): the buyer reported a key that does not work. In one
 * transaction, locking the key, its order and then its grant (the order refunds take): the
 * grant's policy is checked, the reported key goes to quarantine and one new key of the same
 * grant's pools is sold to the same order and returned in plaintext here. No charge and no
 * pull against the grant: its counters stay, the swap shows as a `replacement` activity entry
 * (0) and the `key.replaced` event. A key is replaced once (unique on the replaced key). Given
 * an order (the console's order page), the key must be that order's.
 */
export async function replaceKey(
  ctx: AppContext,
  actor: SellerActor,
  by: AuditBy,
  body: ReplaceBody,
  withinOrderId?: string,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const [key] = await lockKeys(trx, [body.keyId]);
    if (withinOrderId) refuseKeysOfOtherOrders([body.keyId], key ? [key] : [], [], withinOrderId);
    const [order] = key?.order_id ? await lockOrders(trx, [key.order_id]) : [];
    checkReplaceable(key, order, actor);
    const allocation = await requireAllocation(trx, order!.allocation_id, true);
    const policy = replacementPolicyOf(allocation.replacement_policy);
    const used = await repo.replacementsOfOrder(trx, order!.id);
    const refusal = replacementRefusal(policy, order!, used, now);
    if (refusal) {
      throw fail('REPLACEMENT_NOT_ALLOWED', `The grant's replacement policy refuses this key (${refusal}).`, {
        reason: refusal,
        keyId: body.keyId,
        replacementPolicy: policy,
        replacementsUsed: used,
      });
    }
    if (allocation.status !== 'active') {
      throw fail(
        'ALLOCATION_NOT_AVAILABLE',
        `The allocation is ${allocation.status}: no key can be swapped.`,
        {
          allocationId: allocation.id,
          status: allocation.status,
        },
      );
    }
    const replacement = await swap(ctx, trx, order!, body, now);
    await recordAudit(
      ctx,
      {
        companyId: actor.sellerId,
        ...by,
        action: 'key.replaced',
        target: replacement.replacementId,
        // The new key by id only: its plaintext is in this response and nowhere else.
        detail: {
          environment: actor.environment,
          orderReference: replacement.orderReference,
          replacedKeyId: replacement.replacedKeyId,
          keyId: replacement.keyId,
          reason: replacement.reason,
        },
      },
      trx,
    );
    return { ...replacement, replacementsUsed: used + 1, replacementPolicy: policy };
  });
}

async function swap(ctx: AppContext, trx: Executor, order: AdjustableOrder, body: ReplaceBody, now: number) {
  // The new key must not come out of stock that live holds and pre-orders were promised.
  const promised = await promisedOnAllocation(trx, order.allocation_id, now, { orderId: order.id });
  const left = await stockUpTo(trx, order.sku_id, order.environment, order.allocation_id, promised + 1);
  if (left < promised + 1) {
    throw fail('NO_AVAILABLE_KEYS', `No key of ${order.sku_code} is free to swap in; nothing was changed.`, {
      skuCode: order.sku_code,
      requested: 1,
      available: 0,
    });
  }
  const [fresh] = await claimKeys(ctx, trx, {
    allocationId: order.allocation_id,
    skuId: order.sku_id,
    skuCode: order.sku_code,
    environment: order.environment,
    orderId: order.id,
    quantity: 1,
  });
  const [plaintext] = openKeys(ctx, [fresh!]);
  await quarantineKeys(trx, [body.keyId]);
  const id = uuidv7(now);
  const reason = body.reason ?? null;
  await repo.insertReplacement(trx, {
    id,
    seller_company_id: order.seller_company_id,
    environment: order.environment,
    order_id: order.id,
    order_reference: order.order_reference,
    allocation_id: order.allocation_id,
    replaced_key_id: body.keyId,
    key_id: fresh!.id,
    reason,
    created_at: now,
  });
  await recordActivity(trx, 'replacement', activityEntryOf(order, 1, now));
  const data = {
    replacementId: id,
    orderReference: order.order_reference,
    skuCode: order.sku_code,
    replacedKeyId: body.keyId,
    keyId: fresh!.id,
    reason,
  };
  await emit(
    ctx,
    trx,
    [{ companyId: order.seller_company_id, environment: order.environment }],
    'key.replaced',
    data,
  );
  return { ...data, key: plaintext! };
}
