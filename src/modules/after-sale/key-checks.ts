import { fail } from '../../http/errors.js';
import type { AdjustableOrder, SellerActor } from '../checkout/index.js';
import type { LockedKey } from '../inventory/index.js';

/** Why a key id cannot be taken back; any one refuses the whole request. */
export type KeyProblem = 'unknown' | 'not_delivered' | 'already_refunded' | 'already_returned' | 'duplicate';

export interface OwnedKey {
  key: LockedKey;
  order: AdjustableOrder;
}

/** A key was delivered to the caller: its company and environment, and in sandbox its API key. */
export const deliveredTo = (order: AdjustableOrder, actor: SellerActor) =>
  order.seller_company_id === actor.sellerId &&
  order.environment === actor.environment &&
  (actor.environment !== 'sandbox' || order.api_key_id === actor.apiKeyId);

/**
 * Judges every requested id against the locked keys and orders: unknown or another seller's
 * (indistinguishable on purpose), delivered to nobody, or already refunded or returned.
 * Returns the keys in id order, or refuses with `details.keys` naming each bad id and why.
 */
export function ownedKeys(
  requested: readonly string[],
  keys: readonly LockedKey[],
  orders: ReadonlyMap<string, AdjustableOrder>,
  adjusted: ReadonlyMap<string, string>,
  actor: SellerActor,
): OwnedKey[] {
  const byId = new Map(keys.map((k) => [k.id, k]));
  const problems: { keyId: string; reason: KeyProblem }[] = [];
  const owned: OwnedKey[] = [];
  for (const keyId of requested) {
    const key = byId.get(keyId);
    const order = key?.order_id ? orders.get(key.order_id) : undefined;
    if (!key || (order && !deliveredTo(order, actor))) problems.push({ keyId, reason: 'unknown' });
    else if (!order && adjusted.has(`restocked:${keyId}`))
      problems.push({ keyId, reason: 'already_returned' });
    else if (!order) problems.push({ keyId, reason: 'not_delivered' });
    else if (adjusted.has(`${order.id}:${key.id}`) || key.state !== 'sold') {
      const cause = adjusted.get(`${order.id}:${key.id}`);
      problems.push({ keyId, reason: cause === 'return' ? 'already_returned' : 'already_refunded' });
    } else owned.push({ key, order });
  }
  if (problems.length > 0) {
    throw fail(
      'VALIDATION_FAILED',
      `${problems.length} of ${requested.length} keys cannot be taken back; nothing was changed.`,
      {
        keys: problems,
        issues: problems.map((p) => ({
          field: `keyIds[${requested.indexOf(p.keyId)}]`,
          in: 'body',
          message: p.reason,
          keyword: 'key',
        })),
      },
    );
  }
  return owned;
}

/**
 * An action addressed to one order (the console's order page) takes back only that order's keys:
 * a key sold to it, or handed back from it and not sold again. Any other id, another order's of
 * the same company included, answers 404 as an id the order does not have.
 */
export function refuseKeysOfOtherOrders(
  requested: readonly string[],
  keys: readonly { id: string; order_id: string | null }[],
  handedBack: readonly { order_id: string; key_id: string }[],
  orderId: string,
): void {
  const soldTo = new Map(keys.map((k) => [k.id, k.order_id]));
  const backFromOrder = new Set(handedBack.filter((r) => r.order_id === orderId).map((r) => r.key_id));
  const outside = requested.filter((keyId) => {
    const on = soldTo.get(keyId);
    return on !== orderId && !(on === null && backFromOrder.has(keyId));
  });
  if (outside.length > 0) {
    throw fail('NOT_FOUND', `This order has no key ${outside.join(', ')}; nothing was changed.`, {
      keyIds: outside,
    });
  }
}

/** Key ids sent twice are refused before anything is read. */
export function refuseDuplicates(keyIds: readonly string[]): void {
  const seen = new Set<string>();
  const issues = keyIds.flatMap((id, i) => {
    if (!seen.has(id)) {
      seen.add(id);
      return [];
    }
    return [{ field: `keyIds[${i}]`, in: 'body', message: 'duplicate', keyword: 'uniqueItems' }];
  });
  if (issues.length > 0) {
    throw fail('VALIDATION_FAILED', 'keyIds names a key more than once.', {
      keys: issues.map((i) => ({ keyId: keyIds[Number(i.field.slice(7, -1))], reason: 'duplicate' })),
      issues,
    });
  }
}
