import { type Static, Type } from '@sinclair/typebox';

/**
 * How many reported keys a grant's orders may swap (docs/after-sale.md), stored on the grant: at
 * most `maxPerOrder` replacements per order, within `windowDays` of the sale. The operator sets
 * it per grant; `maxPerOrder: 0` turns replacements off for the grant.
 */
export const ReplacementPolicySchema = Type.Object(
  {
    maxPerOrder: Type.Integer({ minimum: 0, maximum: 100 }),
    windowDays: Type.Integer({ minimum: 1, maximum: 365 }),
  },
  { additionalProperties: false },
);
export type ReplacementPolicy = Static<typeof ReplacementPolicySchema>;

/** The platform's policy where the grant sets none: one replacement per order within 30 days. */
export const PLATFORM_REPLACEMENT_POLICY: ReplacementPolicy = { maxPerOrder: 1, windowDays: 30 };

export const replacementPolicyOf = (stored: string | null): ReplacementPolicy =>
  stored ? (JSON.parse(stored) as ReplacementPolicy) : PLATFORM_REPLACEMENT_POLICY;

/** Why the policy refuses one more replacement on an order, or null when it allows it. */
export function replacementRefusal(
  policy: ReplacementPolicy,
  order: { created_at: number },
  used: number,
  now: number,
): 'replacements_disabled' | 'limit_reached' | 'window_elapsed' | null {
  if (policy.maxPerOrder === 0) return 'replacements_disabled';
  if (used >= policy.maxPerOrder) return 'limit_reached';
  if (now - order.created_at > policy.windowDays * 86_400_000) return 'window_elapsed';
  return null;
}
