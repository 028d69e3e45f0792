import { geoOf } from '../preorders/preorder-finance.js';
import type { OrderRow } from './orders.repo.js';

/**
 * An activity entry about keys of an order that moves no money (a keyless `reveal`, a
 * `replacement`): counterparty, promotion and buyer-country evidence as the order stored them.
 */
export function activityEntryOf(order: OrderRow, quantity: number, at: number) {
  return {
    orderId: order.id,
    orderReference: order.order_reference,
    sellerId: order.seller_company_id,
    environment: order.environment,
    publisherId: order.publisher_company_id,
    skuCode: order.sku_code,
    quantity,
    promo: order.promo ? (JSON.parse(order.promo) as { sourceType: string; sourceId: string }) : null,
    customerRegionCode: order.country_code ?? '',
    detectedCountryCode: order.detected_country_code,
    countryMismatch: order.country_mismatch === 1,
    evidenceRank: geoOf(order).evidenceRank,
    currencyCode: order.currency_code ?? undefined,
    at,
  };
}
