import { Type } from '@sinclair/typebox';

/** What a publisher may set on a grant (the operator's `refundPolicy` body). */
export interface RefundPolicyTerms {
  refundableWithinDays: number;
  requiresUnrevealedOrUnredeemed: boolean;
}

/** The effective refund policy: the platform's, or a grant's with the platform's for what it leaves out. */
export const RefundPolicySchema = Type.Object({
  source: Type.Union([Type.Literal('platform'), Type.Literal('publisher')]),
  refundableWithinDays: Type.Integer({ description: 'Days after the order a refund is accepted.' }),
  requiresUnrevealedOrUnredeemed: Type.Boolean({
    description: 'true: only keys whose plaintext never reached anyone may be refunded.',
  }),
  chargebacksQuarantineKeys: Type.Boolean(),
});

export interface RefundPolicy extends RefundPolicyTerms {
  source: 'platform' | 'publisher';
  chargebacksQuarantineKeys: boolean;
}

/**
 * The platform's refund policy, reported wherever no publisher policy overrides it: a delivered
 * key, revealed or not, may be refunded within 14 days of its order (docs/after-sale.md).
 */
export const PLATFORM_REFUND_POLICY = {
  source: 'platform',
  refundableWithinDays: 14,
  requiresUnrevealedOrUnredeemed: false,
  chargebacksQuarantineKeys: true,
} as const;

/**
 * The grant's effective refund policy: the fields its publisher set, the platform's
 * for the rest. `source` says whose rules apply: `publisher` once the grant sets any.
 */
export function refundPolicyOf(stored: string | null): RefundPolicy {
  if (!stored) return PLATFORM_REFUND_POLICY;
  const own = JSON.parse(stored) as Partial<RefundPolicyTerms>;
  return {
    ...PLATFORM_REFUND_POLICY,
    source: 'publisher',
    ...(typeof own.refundableWithinDays === 'number'
      ? { refundableWithinDays: own.refundableWithinDays }
      : {}),
    ...(typeof own.requiresUnrevealedOrUnredeemed === 'boolean'
      ? { requiresUnrevealedOrUnredeemed: own.requiresUnrevealedOrUnredeemed }
      : {}),
  };
}
