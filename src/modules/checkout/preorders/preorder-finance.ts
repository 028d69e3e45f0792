import type { Executor } from '../../../db/database.js';
import { recordActivity, recordSale } from '../../finance/index.js';
import type { IntegrationOrderContext } from '../checkout.schemas.js';
import type { BuyerGeo } from '../line/buyer-geo.js';
import { settle } from '../line/settlement.js';
import type { OrderRow } from '../orders/orders.repo.js';

/** The buyer evidence (and its rank) the order stored when it was accepted. */
export function geoOf(order: OrderRow): BuyerGeo {
  const mismatch = order.country_mismatch === 1;
  return {
    declaredCountry: order.country_code ?? '',
    detectedCountryCode: order.detected_country_code,
    countryMismatch: mismatch,
    consumerIpHash: order.consumer_ip_hash,
    // An attestation that observed a country stored it as the detected one (see resolveBuyerGeo).
    evidenceRank:
      order.detected_country_code !== null && !mismatch ? (order.consumer_geo_attest_id ? 1 : 2) : 3,
    attested: order.consumer_geo_attest_id !== null && order.detected_country_code !== null,
  };
}

/**
 * The finance rows of a converted pre-order, inside the conversion's transaction: the sale line
 * and `sale` activity of an order, at the price and declaration it was accepted with (the
 * settlement object is derived from that declaration as at checkout), or a `pull` activity
 * entry for a custody pull or export.
 */
export async function recordConversionFinance(trx: Executor, order: OrderRow, now: number): Promise<void> {
  const geo = geoOf(order);
  const promo = order.promo ? (JSON.parse(order.promo) as { sourceType: string; sourceId: string }) : null;
  const entry = {
    orderId: order.id,
    orderReference: order.order_reference,
    sellerId: order.seller_company_id,
    environment: order.environment,
    publisherId: order.publisher_company_id,
    skuId: order.sku_id,
    skuCode: order.sku_code,
    quantity: order.quantity,
    promo: promo ? { sourceType: promo.sourceType, sourceId: promo.sourceId } : null,
    customerRegionCode: geo.declaredCountry,
    detectedCountryCode: geo.detectedCountryCode,
    countryMismatch: geo.countryMismatch,
    evidenceRank: geo.evidenceRank,
    currencyCode: order.currency_code ?? undefined,
    wholesaleUnitCents: order.wholesale_unit_price_cents,
    wholesaleCurrencyCode: order.wholesale_currency_code,
    at: now,
  };
  if (order.kind !== 'order' || order.unit_price_cents === null || order.currency_code === null) {
    await recordActivity(trx, 'pull', entry);
    return;
  }
  const declaration = order.integration_context
    ? (JSON.parse(order.integration_context) as Record<string, unknown>)
    : null;
  const warnings = JSON.parse(order.warnings) as { code: string }[];
  await recordSale(trx, {
    ...entry,
    currencyCode: order.currency_code,
    unitPriceCents: order.unit_price_cents,
    initialUnitPriceCents: order.initial_unit_price_cents ?? order.unit_price_cents,
    declaration,
    warnings: warnings.map((w) => w.code),
    consumerIpHash: order.consumer_ip_hash,
    settlement: declaration
      ? { ...settle(declaration as IntegrationOrderContext, order.currency_code, geo) }
      : null,
  });
}
