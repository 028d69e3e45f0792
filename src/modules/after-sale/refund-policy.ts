import type { Executor } from '../../db/database.js';
import { fail } from '../../http/errors.js';
import { isoOf } from '../../lib/clock.js';
import { type RefundPolicy, refundPolicyOf, requireAllocation } from '../allocations/index.js';
import type { OwnedKey } from './key-checks.js';

const DAY_MS = 86_400_000;

/** The grant's refund policy, fields the publisher left out taken from the platform's. */
export async function policyOfAllocation(ex: Executor, allocationId: string): Promise<RefundPolicy> {
  const { refund_policy } = await requireAllocation(ex, allocationId);
  return refundPolicyOf(refund_policy);
}

/**
 * Whether the key's plaintext may have reached a buyer: keys delivered in the response (or
 * revealed later by fulfil or recover-keys) and keyless keys (redeemable on the hosted page,
 * whose redemption the service does not see) count as revealed.
 */
export const isRevealed = (order: OwnedKey['order']) =>
  order.revealed_at !== null || order.delivery === 'keyless';

export type PolicyRefusal = 'refund_window_elapsed' | 'key_revealed';

/** Why the policy refuses money back for this key, or null when it allows it. */
export function policyRefusal(policy: RefundPolicy, owned: OwnedKey, now: number): PolicyRefusal | null {
  if (now > owned.order.created_at + policy.refundableWithinDays * DAY_MS) return 'refund_window_elapsed';
  if (policy.requiresUnrevealedOrUnredeemed && isRevealed(owned.order)) return 'key_revealed';
  return null;
}

/** The grants' policies of the keys, read once per grant. */
export async function policiesOf(ex: Executor, keys: readonly OwnedKey[]) {
  const policies = new Map<string, RefundPolicy>();
  for (const { order } of keys) {
    if (!policies.has(order.allocation_id))
      policies.set(order.allocation_id, await policyOfAllocation(ex, order.allocation_id));
  }
  return policies;
}

/** POST /refunds of type refund: every key must pass its grant's policy, or nothing happens. */
export async function enforceRefundPolicy(ex: Executor, keys: readonly OwnedKey[], now: number) {
  const policies = await policiesOf(ex, keys);
  const refused = keys.flatMap((owned) => {
    const policy = policies.get(owned.order.allocation_id)!;
    const reason = policyRefusal(policy, owned, now);
    if (!reason) return [];
    return [
      {
        keyId: owned.key.id,
        orderReference: owned.order.order_reference,
        reason,
        refundableUntil: isoOf(owned.order.created_at + policy.refundableWithinDays * DAY_MS),
        revealed: isRevealed(owned.order),
        policy,
      },
    ];
  });
  if (refused.length > 0) {
    throw fail(
      'REFUND_NOT_ALLOWED',
      `The refund policy refuses ${refused.length} of ${keys.length} keys; nothing was changed.`,
      { keys: refused },
    );
  }
}
