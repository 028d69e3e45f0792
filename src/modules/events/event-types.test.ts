import { describe, expect, it } from 'vitest';
import { assertPayload, EVENT_TYPES, type EventType } from './event-types.js';

/**
 * The data fields the contract promises for each event type (docs/events.md, "Event types and
 * who emits them"). Every emit checks its payload against the catalog, so the whole suite also
 * proves each producer writes these fields.
 */
const CONTRACT_FIELDS: Record<EventType, string[]> = {
  'test.ping': ['ok', 'webhookId'],
  'order.fulfilled': ['orderReference', 'skuCode', 'quantity', 'pulled', 'fulfilledAt'],
  'order.reserved': ['orderReference', 'skuCode', 'quantity', 'expectedReleaseAt'],
  'order.preorder_fulfilled': ['orderReference', 'skuCode', 'quantity', 'fulfilledAt'],
  'order.failed': ['orderReference', 'skuCode', 'reasonCode'],
  'order.returned': ['orderReference', 'quantity'],
  'order.keys_returned': ['orderReference', 'keyIds', 'returned', 'reason'],
  'refund.completed': ['orderReference', 'refundId', 'adjustmentType', 'adjustmentStatus'],
  'keys.pulled': ['orderReference', 'skuCode', 'pulled'],
  'redemption.expiring': [
    'fulfillmentId',
    'orderReference',
    'skuId',
    'platformCode',
    'provider',
    'expiresAt',
  ],
  'redemption.expired': [
    'fulfillmentId',
    'orderReference',
    'skuId',
    'platformCode',
    'provider',
    'expiresAt',
    'effectiveAt',
  ],
  'redemption.revoked': ['fulfillmentId', 'orderReference', 'revokedAt'],
  'redemption.regenerated': ['fulfillmentId', 'orderReference', 'expiresAt'],
  'key.replaced': ['replacementId', 'orderReference', 'skuCode', 'replacedKeyId', 'keyId', 'reason'],
  'allocation.updated': ['allocationId', 'skuCode', 'remaining', 'reason'],
  'allocation.depleted': ['allocationId', 'skuCode', 'remaining'],
  'allocation.low_stock': ['allocationId', 'skuCode', 'remaining', 'threshold'],
  'product.updated': ['productId', 'updatedAt'],
  'product.announced': ['productId', 'releaseId'],
  'release.available': ['productId', 'releaseId'],
  'release.date_changed': ['productId', 'releaseId', 'skuIds', 'oldDate', 'newDate'],
  'product.delisted': ['productId', 'delistedAt'],
  'product.delisting_scheduled': ['productId', 'effectiveAt'],
  'catalog.export_ready': ['exportId', 'checksum', 'bytes', 'expiresAt', 'totalProducts'],
  'sku.pricing_updated': [
    'skuCode',
    'countryCode',
    'currencyCode',
    'unitPriceCents',
    'effectiveAt',
    'previousPricing',
    'newPricing',
  ],
  'sku.sellability_changed': ['skuId', 'skuCode', 'productId', 'sellable', 'reasons'],
  'contract.activated': ['contractId', 'partnerCompanyId'],
  'contract.superseded': ['contractId', 'supersededBy'],
  'contract.amendment_accepted': ['contractId', 'amendmentId'],
  'invoice.created': ['invoiceId', 'periodStart', 'periodEnd'],
  'report.ready': ['reportId', 'reportType', 'readyAt'],
  'system.webhook_endpoint_disabled': [
    'endpointId',
    'endpointHost',
    'reason',
    'consecutiveFailures',
    'disabledAt',
  ],
};

describe('event type catalog', () => {
  it('names exactly the data fields of the contract for every type, at version 1', () => {
    expect(Object.keys(EVENT_TYPES).sort()).toEqual(Object.keys(CONTRACT_FIELDS).sort());
    for (const [type, fields] of Object.entries(CONTRACT_FIELDS)) {
      const spec = EVENT_TYPES[type as EventType];
      expect(Object.keys(spec.payload.properties).sort(), type).toEqual([...fields].sort());
      expect(spec.version).toBe(1);
    }
  });

  it('requires every field except allocation.updated reason (revoke/pause only)', () => {
    for (const [type, spec] of Object.entries(EVENT_TYPES)) {
      const optional = Object.keys(spec.payload.properties).filter(
        (f) => !((spec.payload.required ?? []) as string[]).includes(f),
      );
      expect(optional, type).toEqual(type === 'allocation.updated' ? ['reason'] : []);
    }
  });

  it('refuses a payload with a missing, extra or mistyped field', () => {
    const ok = { allocationId: 'a', skuCode: 'S', remaining: 0 };
    expect(() => assertPayload('allocation.depleted', ok)).not.toThrow();
    expect(() => assertPayload('allocation.depleted', { ...ok, key: 'AAAA-BBBB' })).toThrow(/catalog/);
    expect(() => assertPayload('allocation.depleted', { allocationId: 'a', skuCode: 'S' })).toThrow(
      /catalog/,
    );
    expect(() => assertPayload('allocation.depleted', { ...ok, remaining: '0' })).toThrow(/catalog/);
    expect(() => assertPayload('product.updated', { productId: 'p', updatedAt: 'yesterday' })).toThrow(
      /catalog/,
    );
  });
});
