import { type Static, Type } from '@sinclair/typebox';
import { Nullable, OneOf, OrderReference, Uuid, Warnings } from '../../http/schemas.js';

const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' });
const Currency = Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217' });
const Minor = Type.Integer({ minimum: 0, description: 'integer minor units' });
export const Quantity = Type.Integer({ minimum: 1, maximum: 1000 });
const SkuCode = Type.String({ minLength: 1, maxLength: 64 });

/** The seller's declaration of the sale; `consumerIp` is resolved then discarded. */
export const IntegrationOrderContext = Type.Object(
  {
    schemaVersion: Type.Optional(Type.Integer({ minimum: 1 })),
    salesCountryCode: Type.Optional(Country),
    currencyCode: Type.Optional(Currency),
    salesPriceGrossMinor: Type.Optional(Minor),
    salesPriceNetMinor: Type.Optional(Minor),
    priceIncludesTax: Type.Optional(Type.Boolean()),
    salesTaxRatePercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.0001 })),
    salesTaxAmountMinor: Type.Optional(Minor),
    salesChannel: Type.Optional(
      Type.String({ pattern: '^(web|mobile_app|partner_embed|marketplace:[a-z0-9][a-z0-9_-]{0,63})$' }),
    ),
    paymentMethodFamily: Type.Optional(Type.String({ maxLength: 64 })),
    paymentProcessorReference: Type.Optional(Type.String({ maxLength: 200 })),
    checkoutSessionId: Type.Optional(Type.String({ maxLength: 200 })),
    consumerIp: Type.Optional(Type.String({ minLength: 2, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type IntegrationOrderContext = Static<typeof IntegrationOrderContext>;

/** Fields every checkout line shares (preview, hold, order, bulk item, pull). */
const lineFields = {
  skuCode: Type.Optional(SkuCode),
  quantity: Quantity,
  countryCode: Type.Optional(Country),
  expectedUnitPriceCents: Type.Optional(Minor),
  expectedWholesaleUnitPriceCents: Type.Optional(Minor),
  priceCommitmentToken: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  consumerGeoAttestId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  integrationOrderContext: Type.Optional(IntegrationOrderContext),
};

export const PreviewBody = Type.Object(
  { ...lineFields, orderReference: Type.Optional(OrderReference) },
  { additionalProperties: false },
);

export const OrderBody = Type.Object(
  {
    ...lineFields,
    orderReference: OrderReference,
    deliveryMode: Type.Optional(OneOf(['key', 'keyless'] as const)),
    immediateFulfilment: Type.Optional(Type.Boolean({ default: true })),
    checkoutHoldId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type OrderBody = Static<typeof OrderBody>;

export const HoldBody = Type.Object(
  {
    skuCode: SkuCode,
    quantity: Quantity,
    countryCode: Country,
    orderReference: OrderReference,
    expectedUnitPriceCents: Type.Optional(Minor),
    integrationOrderContext: Type.Optional(IntegrationOrderContext),
    ttlSeconds: Type.Optional(
      Type.Integer({ minimum: 1, description: 'default 1800; clamped to 60..3600 by the platform' }),
    ),
  },
  { additionalProperties: false },
);

export const PullBody = Type.Object(
  {
    ...lineFields,
    allocationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    orderReference: Type.Optional(OrderReference),
    immediateFulfilment: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type PullBody = Static<typeof PullBody>;

export const PromoSchema = Nullable(
  Type.Object({
    sourceType: Type.String(),
    sourceId: Type.String(),
    discountPercent: Type.Number(),
    priceEffect: Type.String(),
    startDate: Type.String(),
    endDate: Type.String(),
  }),
);

/** The priced part of a quoted line, as preview and hold answer it (`promo`: the discount applied). */
export const LinePriceFields = {
  countryCode: Type.String(),
  currencyCode: Type.String(),
  unitPriceCents: Nullable(Type.Integer()),
  initialUnitPriceCents: Nullable(Type.Integer()),
  promo: PromoSchema,
  promoResolution: Type.String(),
};

export const ActivationSchema = Type.Object({
  type: Type.String(),
  countries: Nullable(Type.Array(Type.String())),
});

export const SettlementSchema = Type.Object({
  basis: Type.String(),
  currencyCode: Type.String(),
  appliedRatePercent: Nullable(Type.Number()),
  declaredRatePercent: Nullable(Type.Number()),
  rateReason: Type.String(),
  evidenceRank: Type.Integer(),
  grossMinor: Nullable(Type.Integer()),
  vatMinor: Nullable(Type.Integer()),
  netMinor: Nullable(Type.Integer()),
});

export const HoldRef = Type.Object({
  holdId: Type.String(),
  status: Type.String(),
  committedWithoutHold: Type.Boolean(),
  endedAs: Type.Optional(Type.String()),
});

export const FulfilledSchema = Type.Object({
  type: OneOf(['fulfilled', 'reserved'] as const),
  orderId: Type.String(),
  orderReadableId: Type.String(),
  skuCode: Type.String(),
  quantity: Type.Integer(),
  keys: Type.Array(Type.String()),
  keyIds: Type.Array(Type.String()),
  refundedKeyIds: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Keys of this order a refund, chargeback or return took back since it was fulfilled: a replay (same orderReference or Idempotency-Key, recover-keys) names them here and leaves them out of keys and keyIds; their plaintext is never answered again.',
    }),
  ),
  pulled: Type.Integer(),
  orderReference: Type.String(),
  activation: ActivationSchema,
  deferredReveal: Type.Optional(Type.Boolean()),
  redemption: Type.Optional(
    Type.Object(
      {
        fulfillmentId: Type.String(),
        expiresAt: Type.String(),
        url: Nullable(
          Type.String({
            description:
              "The buyer's redemption page (docs/after-sale.md): a secret link, shown only in this answer; null once revoked.",
          }),
        ),
      },
      { description: 'hosted redemption record (keyless delivery)' },
    ),
  ),
  reserved: Type.Optional(
    Type.Object({ quantity: Type.Integer(), expectedReleaseAt: Nullable(Type.String()) }),
  ),
  unitPriceCents: Nullable(Type.Integer()),
  currencyCode: Nullable(Type.String()),
  countryCode: Nullable(Type.String()),
  checkoutHold: Type.Optional(HoldRef),
  warnings: Warnings,
});
