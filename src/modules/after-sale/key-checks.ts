import { fail } from '../../http/errors.js';
import type { SellerActor } from '../checkout/line/quote.service.js';
import type { AdjustableOrder } from '../checkout/orders/order-adjustments.service.js';
import type { LockedKey } from '../inventory/key-custody.service.js';

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
