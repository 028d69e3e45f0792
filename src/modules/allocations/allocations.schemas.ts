import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PageMeta, Warnings } from '../../http/schemas.js';
import { ActivationSchema } from '../catalog/index.js';
import { RefundPolicySchema } from './refund-policy.js';
import { ReplacementPolicySchema } from './replacement-policy.js';

export const AllocationSchema = Type.Object({
  id: Type.String(),
  readableId: Type.String(),
  createdAt: Nullable(DateTime),
  publisherCompanyId: Type.String(),
  publisherCompanyName: Type.String(),
  productId: Nullable(Type.String()),
  skuId: Type.String(),
  skuCode: Type.String(),
  productName: Type.String(),
  quantityLimit: Type.Integer(),
  quantityPulled: Type.Integer(),
  remaining: Type.Integer(),
  status: Type.String(),
  paymentStatus: Type.String(),
  businessModel: Type.String(),
  pricePerKeyCents: Nullable(Type.Integer()),
  currencyCode: Nullable(Type.String()),
  currencyExponent: Nullable(Type.Integer()),
  shareActive: Type.Boolean(),
  catalogVisible: Type.Boolean(),
  territoryPricingSet: Type.Boolean(),
  sellable: Type.Boolean(),
  readinessBlockers: Type.Array(Type.String()),
  recommendedAction: Nullable(Type.String()),
  updatedAt: DateTime,
  activation: ActivationSchema,
  refundPolicy: RefundPolicySchema,
  replacementPolicy: ReplacementPolicySchema,
  consumerGeoAttestRequired: Type.Boolean(),
  hotDrop: Type.Boolean(),
  reservationMaxQuantity: Type.Integer(),
  holdsEnabled: Type.Boolean(),
  lowStockThreshold: Nullable(Type.Integer()),
});

export const ListMeta = Type.Composite([PageMeta, Type.Object({ warnings: Warnings })]);

export const AllocationRequestSchema = Type.Object({
  id: Type.String(),
  grantId: Type.String(),
  allocationReadableId: Type.String(),
  skuCode: Type.String(),
  requestedQuantity: Type.Integer(),
  declaredForecast: Nullable(Type.Integer()),
  publisherAvailableKeys: Nullable(Type.Integer()),
  status: Type.String({ description: 'pending, approved or rejected' }),
  resolution: Nullable(
    Type.Object({
      approvedQuantity: Nullable(Type.Integer()),
      reason: Nullable(Type.String()),
      resolvedAt: Nullable(DateTime),
    }),
  ),
  createdAt: DateTime,
});
