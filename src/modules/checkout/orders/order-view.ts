import { isoOf, isoOrNull } from '../../../lib/clock.js';
import type { HoldOutcome } from '../holds/holds.service.js';
import type { OrderRow } from './orders.repo.js';

export interface OrderViewExtras {
  keys: string[];
  keyIds: string[];
  activation: { type: string; countries: string[] | null };
  hold?: HoldOutcome | null;
  redemption?: { fulfillmentId: string; expiresAt: number; url: string | null } | null;
  /** Keys of the order a refund, chargeback, return or replacement took back: named, never answered. */
  refundedKeyIds?: string[];
}

/** The fulfilled response of POST /orders (also reserved pre-orders, deferred reveal and keyless). */
export function fulfilledView(order: OrderRow, extras: OrderViewExtras) {
  const preorder = order.delivery === 'preorder';
  return {
    type: preorder ? ('reserved' as const) : ('fulfilled' as const),
    orderId: order.id,
    orderReadableId: order.readable_id,
    skuCode: order.sku_code,
    quantity: order.quantity,
    keys: order.delivery === 'keys' ? extras.keys : [],
    keyIds: extras.keyIds,
    ...(extras.refundedKeyIds?.length ? { refundedKeyIds: extras.refundedKeyIds } : {}),
    pulled: order.pulled,
    orderReference: order.order_reference,
    activation: extras.activation,
    ...(order.delivery === 'deferred' ? { deferredReveal: true } : {}),
    ...(extras.redemption
      ? {
          redemption: {
            fulfillmentId: extras.redemption.fulfillmentId,
            expiresAt: isoOf(extras.redemption.expiresAt),
            url: extras.redemption.url,
          },
        }
      : {}),
    ...(preorder ? { reserved: { quantity: order.quantity, expectedReleaseAt: null as string | null } } : {}),
    unitPriceCents: order.unit_price_cents,
    currencyCode: order.currency_code,
    countryCode: order.country_code,
    ...(extras.hold ? { checkoutHold: extras.hold } : {}),
    warnings: JSON.parse(order.warnings) as { code: string; message: string }[],
  };
}

/** The order aggregate of GET /orders (docs/checkout.md): counts and references, never keys. */
export function orderAggregate(order: OrderRow, keyIds: string[]) {
  return {
    id: order.id,
    readableId: order.readable_id,
    orderReference: order.order_reference,
    kind: order.kind,
    delivery: order.delivery,
    skuId: order.sku_id,
    skuCode: order.sku_code,
    productId: order.product_id,
    allocationId: order.allocation_id,
    publisherCompanyId: order.publisher_company_id,
    quantity: order.quantity,
    pulled: order.pulled,
    keyIds,
    unitPriceCents: order.unit_price_cents,
    initialUnitPriceCents: order.initial_unit_price_cents,
    currencyCode: order.currency_code,
    countryCode: order.country_code,
    wholesaleUnitPriceCents: order.wholesale_unit_price_cents,
    wholesaleCurrencyCode: order.wholesale_currency_code,
    promo: order.promo ? JSON.parse(order.promo) : null,
    checkoutHoldId: order.hold_id,
    detectedCountryCode: order.detected_country_code,
    countryMismatch: order.country_mismatch === 1,
    deferredReveal: order.delivery === 'deferred',
    revealedAt: isoOrNull(order.revealed_at),
    contractDate: order.contract_date,
    createdAt: isoOf(order.created_at),
  };
}
