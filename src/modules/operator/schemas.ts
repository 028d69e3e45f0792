import { Type } from '@sinclair/typebox';
import { CountryCode, CurrencyCode, DateTime, Nullable, OneOf, Uuid } from '../../http/schemas.js';
import { ReplacementPolicySchema } from '../allocations/index.js';

export const IdParams = Type.Object({ id: Uuid });

export const AgreementBody = Type.Object({
  kind: Type.Union([Type.Literal('bma'), Type.Literal('mca')]),
  bmaType: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 40 }))),
  status: Type.Optional(OneOf(['pending', 'active', 'paused'])),
  currencyMode: Type.Optional(Type.Union([Type.Literal('catalog'), Type.Literal('custom')])),
  currencyDetail: Type.Optional(
    Type.Record(
      Type.String({ pattern: '^[A-Z]{3}$' }),
      Type.Union([Type.Array(CountryCode), Type.Literal('territory')]),
    ),
  ),
  permittedChannels: Type.Optional(
    Type.Union([Type.Literal('own_storefront'), Type.Literal('own_storefront_plus_named_marketplaces')]),
  ),
  marketplaceSlugs: Type.Optional(
    Type.Array(Type.String({ pattern: '^[a-z0-9-]{1,64}$' }), { maxItems: 100 }),
  ),
  consumerGeoPolicy: Type.Optional(
    Type.Union([Type.Literal('allow'), Type.Literal('flag'), Type.Literal('refuse')]),
  ),
  regionLocks: Type.Optional(Type.Array(CountryCode, { maxItems: 250 })),
});

export const ProductBody = Type.Object({
  publisherCompanyId: Uuid,
  environment: Type.Optional(Type.Union([Type.Literal('production'), Type.Literal('sandbox')])),
  name: Type.String({ minLength: 1, maxLength: 300 }),
  slug: Type.String({ minLength: 1, maxLength: 512, pattern: '^[a-z0-9][a-z0-9-]*$' }),
  shortDescription: Type.Optional(
    Type.Record(Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' }), Type.String({ maxLength: 2000 })),
  ),
  status: Type.Optional(OneOf(['draft', 'active', 'discontinued', 'archived'])),
  launchPhase: Type.Optional(OneOf(['announced', 'pre_order', 'released'])),
  tradingState: Type.Optional(OneOf(['trading', 'suspended', 'ended'])),
  preorderEnabled: Type.Optional(Type.Boolean()),
  preorderStart: Type.Optional(Nullable(DateTime)),
  preorderEnd: Type.Optional(Nullable(DateTime)),
  cover: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
  platforms: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 50 })),
  regions: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 300 })),
});

export const ProductPatchBody = Type.Composite([
  Type.Partial(Type.Omit(ProductBody, ['publisherCompanyId', 'environment'])),
  Type.Object({ isArchived: Type.Optional(Type.Boolean()), archiveAt: Type.Optional(Nullable(DateTime)) }),
]);

export const ReleaseBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  editionId: Type.Optional(Nullable(Uuid)),
  state: Type.Optional(OneOf(['planned', 'announced', 'available'])),
  releaseDate: Type.Optional(Nullable(DateTime)),
  excludedCountries: Type.Optional(Type.Array(CountryCode, { maxItems: 250 })),
});

export const ReleasePatchBody = Type.Composite([
  Type.Partial(Type.Omit(ReleaseBody, ['editionId'])),
  Type.Object({ delisted: Type.Optional(Type.Boolean()) }),
]);

export const SkuBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' }),
  platform: Type.String({ minLength: 1, maxLength: 40 }),
  activationType: Type.Optional(
    Type.Union([Type.Literal('worldwide'), Type.Literal('countries'), Type.Literal('unknown')]),
  ),
  activationCountries: Type.Optional(Nullable(Type.Array(CountryCode, { maxItems: 250 }))),
  regionLocks: Type.Optional(Nullable(Type.Array(CountryCode, { maxItems: 250 }))),
});

export const PriceBody = Type.Object({
  countryCode: CountryCode,
  currencyCode: CurrencyCode,
  listPriceCents: Nullable(Type.Integer({ minimum: 0 })),
  srpMinCents: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  srpMaxCents: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  effectiveAt: Type.Optional(DateTime),
});

/**
 * A grant's own refund policy: each field left out follows the platform's (14 days; revealed
 * keys refundable). null puts the grant back on the platform policy.
 */
export const RefundPolicyBody = Type.Object(
  {
    refundableWithinDays: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 365, description: 'Days after the order a refund is accepted.' }),
    ),
    requiresUnrevealedOrUnredeemed: Type.Optional(
      Type.Boolean({ description: 'true: only keys whose plaintext never reached anyone may be refunded.' }),
    ),
  },
  { additionalProperties: false },
);

export const AllocationTermsBody = Type.Object({
  quantityLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  pricePerKeyCents: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  currencyCode: Type.Optional(Nullable(CurrencyCode)),
  currencyExponent: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 4 }))),
  businessModel: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  paymentStatus: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  hotDrop: Type.Optional(Type.Boolean()),
  reservationMaxQuantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  holdsEnabled: Type.Optional(Type.Boolean()),
  lowStockThreshold: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  refundPolicy: Type.Optional(Nullable(RefundPolicyBody)),
  consumerGeoAttestRequired: Type.Optional(Type.Boolean()),
  replacementPolicy: Type.Optional(Nullable(ReplacementPolicySchema)),
  requestPolicy: Type.Optional(
    Type.Union([Type.Literal('none'), Type.Literal('manual'), Type.Literal('auto')]),
  ),
  autoApproveMax: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
});

export const PromotionBody = Type.Object({
  sourceType: Type.Optional(Type.Union([Type.Literal('promotion'), Type.Literal('deal')])),
  productId: Type.Optional(Uuid),
  skuId: Type.Optional(Uuid),
  sellerCompanyId: Type.Optional(Nullable(Uuid)),
  discountPercent: Type.Integer({ minimum: 1, maximum: 100 }),
  startsAt: DateTime,
  endsAt: DateTime,
  requiresAcceptance: Type.Optional(Type.Boolean()),
});
