import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PageMeta, Warnings } from '../../http/schemas.js';
import { ActivationSchema } from './activation.js';

export const ProductBaseSchema = Type.Object({
  id: Type.String(),
  publisherCompanyId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  shortDescription: Type.String(),
  status: Type.String({ description: 'legacy rollup: always active for visible products' }),
  launchPhase: Type.String(),
  tradingState: Type.String(),
  isArchived: Type.Boolean(),
  listPriceFromCents: Nullable(Type.Integer()),
  cover: Nullable(Type.Record(Type.String(), Type.Unknown())),
  platforms: Type.Array(Type.Unknown()),
  regions: Type.Array(Type.Unknown()),
  preorderWindow: Nullable(Type.Object({ start: Nullable(DateTime), end: Nullable(DateTime) })),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const ProductListItem = Type.Composite([
  ProductBaseSchema,
  Type.Object({
    availability: Type.Optional(
      Type.Object({
        available: Type.Integer(),
        allocationRemaining: Type.Integer(),
        inventoryAvailable: Type.Integer(),
        skuCount: Type.Integer(),
      }),
    ),
    pricing: Type.Optional(
      Type.Object({
        wholesaleFromCents: Nullable(Type.Integer()),
        listPriceFromCents: Nullable(Type.Integer()),
      }),
    ),
  }),
]);

/** GET /catalog/snapshot as JSON; in ndjson, the meta is line 1 and each product a line. */
export const CatalogSnapshotSchema = Type.Object({
  meta: Type.Object({
    maxUpdatedAt: Nullable(DateTime),
    totalProducts: Type.Integer(),
    format: Type.Union([Type.Literal('json'), Type.Literal('ndjson')]),
    generatedAt: DateTime,
  }),
  data: Type.Array(ProductListItem),
});

export const ProductListResponse = Type.Object({
  data: Type.Array(ProductListItem),
  meta: Type.Composite([
    PageMeta,
    Type.Object({ localePreference: Type.Array(Type.String()), warnings: Warnings }),
  ]),
});

const SkuSchema = Type.Object({
  id: Type.String(),
  code: Type.String(),
  platform: Type.String(),
  releaseId: Type.String(),
  activation: ActivationSchema,
  delisted: Type.Boolean(),
});

const PriceSchema = Type.Object({
  countryCode: Type.String(),
  currencyCode: Type.String(),
  listPriceCents: Type.Integer(),
  srpMinCents: Nullable(Type.Integer()),
  srpMaxCents: Nullable(Type.Integer()),
  effectiveAt: DateTime,
});

export const ProductDetailResponse = Type.Object({
  data: Type.Composite([
    ProductBaseSchema,
    Type.Object({
      editions: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String() }))),
      releases: Type.Optional(
        Type.Array(
          Type.Object({
            id: Type.String(),
            name: Type.String(),
            editionId: Nullable(Type.String()),
            state: Type.String(),
            releaseDate: Nullable(DateTime),
            excludedCountries: Type.Array(Type.String()),
            delisted: Type.Boolean(),
            skus: Type.Array(SkuSchema),
          }),
        ),
      ),
      skus: Type.Optional(Type.Array(SkuSchema)),
      pricing: Type.Optional(
        Type.Array(Type.Composite([Type.Object({ releaseId: Type.String() }), PriceSchema])),
      ),
    }),
  ]),
  relatedProducts: Type.Array(Type.Object({ type: Type.String(), productId: Type.String() })),
});

export const PricingReleaseSchema = Type.Object({
  releaseId: Type.String(),
  releaseName: Type.String(),
  prices: Type.Array(PriceSchema),
  product: Type.Optional(Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() })),
});

export const ChecksumSchema = Type.Object({
  digestAlgorithm: Type.Literal('sha256-sorted-product-rows-v1'),
  digest: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  productCount: Type.Integer(),
  maxUpdatedAt: Nullable(DateTime),
  computedAt: DateTime,
});

export const ChangesResponse = Type.Object({
  data: Type.Object({
    changes: Type.Array(
      Type.Object({
        productId: Type.String(),
        type: Type.String({ description: 'added, updated or removed' }),
        occurredAt: DateTime,
        changedFields: Type.Array(Type.String()),
      }),
    ),
  }),
  meta: PageMeta,
});
