import { type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { DATE_TIME_PATTERN } from '../../lib/clock.js';

/**
 * The closed catalog of event types (docs/events.md), in the spirit of http/errors.ts: every event
 * a module writes to the outbox is named here with its version, the exact fields of its `data`
 * and who receives it. `emit` accepts only these types and payloads of these shapes; a payload
 * with a missing or extra field is a programming error and throws before anything is written.
 *
 * Audience: `seller` events go to the seller company (and environment) named by the caller;
 * `endpoint` events go to one webhook endpoint alone (`test.ping`); `other-endpoints` events go
 * to the seller's endpoints except the one named by `data.endpointId`.
 */
export type EventAudience = 'seller' | 'endpoint' | 'other-endpoints';

const Iso = Type.String({ pattern: DATE_TIME_PATTERN });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Exact = <P extends TProperties>(props: P): TObject<P> =>
  Type.Object(props, { additionalProperties: false });

const redemption = {
  fulfillmentId: Type.String(),
  orderReference: Type.String(),
  skuId: Type.String(),
  platformCode: Nullable(Type.String()),
  provider: Type.String(),
  expiresAt: Iso,
};
const allocation = { allocationId: Type.String(), skuCode: Type.String(), remaining: Type.Integer() };
const Pricing = Exact({ priceCents: Type.Integer(), currencyCode: Type.String() });

function type<P extends TProperties>(payload: P, audience: EventAudience = 'seller') {
  return { version: 1 as const, audience, payload: Exact(payload) };
}

export const EVENT_TYPES = {
  'test.ping': type({ ok: Type.Literal(true), webhookId: Type.String() }, 'endpoint'),
  'order.fulfilled': type({
    orderReference: Type.String(),
    skuCode: Type.String(),
    quantity: Type.Integer(),
    pulled: Type.Integer(),
    fulfilledAt: Iso,
  }),
  'order.reserved': type({
    orderReference: Type.String(),
    skuCode: Type.String(),
    quantity: Type.Integer(),
    expectedReleaseAt: Nullable(Iso),
  }),
  'order.preorder_fulfilled': type({
    orderReference: Type.String(),
    skuCode: Type.String(),
    quantity: Type.Integer(),
    fulfilledAt: Iso,
  }),
  'order.failed': type({ orderReference: Type.String(), skuCode: Type.String(), reasonCode: Type.String() }),
  'order.returned': type({ orderReference: Type.String(), quantity: Type.Integer() }),
  'order.keys_returned': type({
    orderReference: Type.String(),
    keyIds: Type.Array(Type.String()),
    returned: Type.Integer(),
    reason: Nullable(Type.String()),
  }),
  'refund.completed': type({
    orderReference: Type.String(),
    refundId: Type.String(),
    adjustmentType: Type.String(),
    adjustmentStatus: Type.String(),
  }),
  'keys.pulled': type({ orderReference: Type.String(), skuCode: Type.String(), pulled: Type.Integer() }),
  'redemption.expiring': type(redemption),
  'redemption.expired': type({ ...redemption, effectiveAt: Iso }),
  'redemption.revoked': type({
    fulfillmentId: Type.String(),
    orderReference: Type.String(),
    revokedAt: Iso,
  }),
  'redemption.regenerated': type({
    fulfillmentId: Type.String(),
    orderReference: Type.String(),
    expiresAt: Iso,
  }),
  'key.replaced': type({
    replacementId: Type.String(),
    orderReference: Type.String(),
    skuCode: Type.String(),
    replacedKeyId: Type.String(),
    keyId: Type.String(),
    reason: Nullable(Type.String()),
  }),
  'allocation.updated': type({ ...allocation, reason: Type.Optional(Type.String()) }),
  'allocation.depleted': type(allocation),
  'allocation.low_stock': type({ ...allocation, threshold: Type.Integer() }),
  'product.updated': type({ productId: Type.String(), updatedAt: Iso }),
  'product.announced': type({ productId: Type.String(), releaseId: Type.String() }),
  'release.available': type({ productId: Type.String(), releaseId: Type.String() }),
  'release.date_changed': type({
    productId: Type.String(),
    releaseId: Type.String(),
    skuIds: Type.Array(Type.String()),
    oldDate: Nullable(Iso),
    newDate: Nullable(Iso),
  }),
  'product.delisted': type({ productId: Type.String(), delistedAt: Iso }),
  'product.delisting_scheduled': type({ productId: Type.String(), effectiveAt: Iso }),
  'catalog.export_ready': type({
    exportId: Type.String(),
    checksum: Type.String(),
    bytes: Type.Integer(),
    expiresAt: Iso,
    totalProducts: Type.Integer(),
  }),
  'sku.pricing_updated': type({
    skuCode: Type.String(),
    countryCode: Type.String(),
    currencyCode: Type.String(),
    unitPriceCents: Nullable(Type.Integer()),
    effectiveAt: Iso,
    previousPricing: Nullable(Pricing),
    // null when the territory price was withdrawn (the SKU is no longer priced there).
    newPricing: Nullable(Pricing),
  }),
  'sku.sellability_changed': type({
    skuId: Type.String(),
    skuCode: Type.String(),
    productId: Type.String(),
    sellable: Type.Boolean(),
    reasons: Type.Array(Type.String()),
  }),
  'contract.activated': type({ contractId: Type.String(), partnerCompanyId: Type.String() }),
  'contract.superseded': type({ contractId: Type.String(), supersededBy: Type.String() }),
  'contract.amendment_accepted': type({ contractId: Type.String(), amendmentId: Type.String() }),
  'invoice.created': type({ invoiceId: Type.String(), periodStart: Iso, periodEnd: Iso }),
  'report.ready': type({ reportId: Type.String(), reportType: Type.String(), readyAt: Iso }),
  'system.webhook_endpoint_disabled': type(
    {
      endpointId: Type.String(),
      endpointHost: Type.String(),
      reason: Type.String(),
      consecutiveFailures: Type.Integer(),
      disabledAt: Iso,
    },
    'other-endpoints',
  ),
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = Static<(typeof EVENT_TYPES)[T]['payload']>;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];
export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPES, value);

const checkers = new Map(
  EVENT_TYPE_NAMES.map((name) => [name, TypeCompiler.Compile(EVENT_TYPES[name].payload)] as const),
);

/** Throws when `data` is not exactly the catalog's payload of `type` (a bug in the emitting module). */
export function assertPayload(type: EventType, data: unknown): void {
  const checker = checkers.get(type);
  if (!checker) throw new Error(`Unknown event type ${type}`);
  if (!checker.Check(data)) {
    const first = checker.Errors(data).First();
    throw new Error(`Event ${type} payload does not match the catalog: ${first?.path} ${first?.message}`);
  }
}
