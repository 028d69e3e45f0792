import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, OneOf } from '../../http/schemas.js';

const KeyIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 1000 });
const Reference = Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' });
const Reason = Type.String({ minLength: 1, maxLength: 500 });

/** `type` is declared first, so a missing or wrong type is `details.issues[0]`. */
export const RefundBody = Type.Object(
  {
    type: OneOf(['refund', 'chargeback']),
    refundReference: Type.Optional(Reference),
    chargebackReference: Type.Optional(Reference),
    keyIds: KeyIds,
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);

export const ReturnBody = Type.Object({ keyIds: KeyIds, reason: Reason }, { additionalProperties: false });

const Amount = Type.Object({
  currencyCode: Type.String(),
  grossCents: Type.Integer(),
  wholesaleCents: Type.Integer(),
});

export const RefundSchema = Type.Object({
  refundId: Type.String(),
  adjustmentType: OneOf(['refund', 'chargeback']),
  adjustmentStatus: Type.Literal('completed'),
  refundReference: Type.Optional(Nullable(Type.String())),
  chargebackReference: Type.Optional(Nullable(Type.String())),
  source: Type.String({ description: 'refund, chargeback, or return (POST /keys/return that moved money)' }),
  orderReferences: Type.Array(Type.String()),
  keyIds: Type.Array(Type.String()),
  amounts: Type.Array(Amount, { description: 'per currency: gross sale and wholesale reversed' }),
  reason: Nullable(Type.String()),
  reinstatedAt: Nullable(DateTime),
  createdAt: DateTime,
});

export const ReturnSchema = Type.Object({
  returnId: Type.String(),
  keyIds: Type.Array(Type.String()),
  returned: Type.Integer(),
  reason: Type.String(),
  orders: Type.Array(
    Type.Object({
      orderReference: Type.String(),
      keyIds: Type.Array(Type.String()),
      restocked: Type.Array(Type.String()),
      quarantined: Type.Array(Type.String()),
    }),
  ),
  refund: Nullable(RefundSchema),
  createdAt: DateTime,
});

export const RefundListQuery = Type.Object({
  orderReference: Type.Optional(Reference),
  type: Type.Optional(OneOf(['refund', 'chargeback'])),
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
});
