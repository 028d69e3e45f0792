import type { Executor } from '../../db/database.js';
import { uuidv7 } from '../../lib/ids.js';
import { firstMovement } from './activity.repo.js';
import * as repo from './finance.repo.js';
import type { ActivityKind } from './finance.table.js';

/** What fulfilment knows of a sale when it records it (amounts per key, minor units). */
export interface SaleRecord {
  orderId: string;
  orderReference: string;
  sellerId: string;
  environment: string;
  publisherId: string;
  skuId: string;
  skuCode: string;
  quantity: number;
  unitPriceCents: number;
  initialUnitPriceCents: number;
  currencyCode: string;
  wholesaleUnitCents: number | null;
  wholesaleCurrencyCode: string | null;
  promo: { sourceType: string; sourceId: string } | null;
  declaration: Record<string, unknown> | null;
  customerRegionCode: string;
  detectedCountryCode: string | null;
  countryMismatch: boolean;
  warnings: string[];
  consumerIpHash: string | null;
  settlement: Record<string, unknown> | null;
  evidenceRank: number;
  at: number;
}

const SIGNS: Record<ActivityKind, number> = {
  sale: 1,
  pull: 1,
  refund: -1,
  chargeback: -1,
  reveal: 0,
  replacement: 0,
};

/** A sale's finance sale line and its `sale` activity entry, as rows. */
export function saleRows(sale: SaleRecord) {
  return {
    sale: {
      id: uuidv7(sale.at),
      seller_company_id: sale.sellerId,
      environment: sale.environment,
      order_id: sale.orderId,
      order_reference: sale.orderReference,
      entry_type: 'sale' as const,
      reverses_transaction_id: null,
      publisher_company_id: sale.publisherId,
      sku_id: sale.skuId,
      sku_code: sale.skuCode,
      quantity: sale.quantity,
      unit_price_cents: sale.unitPriceCents,
      sale_price_cents: sale.unitPriceCents * sale.quantity,
      initial_sale_price_cents: sale.initialUnitPriceCents * sale.quantity,
      currency_code: sale.currencyCode,
      wholesale_cents: sale.wholesaleUnitCents === null ? null : sale.wholesaleUnitCents * sale.quantity,
      wholesale_currency_code: sale.wholesaleCurrencyCode,
      promo: sale.promo ? JSON.stringify(sale.promo) : null,
      tax_metadata: JSON.stringify(sale.declaration ?? {}),
      customer_region_code: sale.customerRegionCode,
      detected_country_code: sale.detectedCountryCode,
      country_mismatch: sale.countryMismatch ? 1 : 0,
      warnings: JSON.stringify(sale.warnings),
      consumer_ip_hash: sale.consumerIpHash,
      settlement: sale.settlement ? JSON.stringify(sale.settlement) : null,
      created_at: sale.at,
    },
    activity: activityRow('sale', sale),
  };
}

/** The sale line and its activity entry, inside the fulfilment's transaction. */
export async function recordSale(trx: Executor, sale: SaleRecord): Promise<string> {
  const rows = saleRows(sale);
  await repo.insertSaleWithActivity(trx, rows.sale, rows.activity);
  return rows.sale.id;
}

type ActivityEntry = Pick<
  SaleRecord,
  | 'orderId'
  | 'orderReference'
  | 'sellerId'
  | 'environment'
  | 'publisherId'
  | 'skuCode'
  | 'quantity'
  | 'promo'
  | 'customerRegionCode'
  | 'detectedCountryCode'
  | 'countryMismatch'
  | 'evidenceRank'
  | 'at'
> &
  Partial<
    Pick<SaleRecord, 'currencyCode' | 'unitPriceCents' | 'wholesaleUnitCents' | 'wholesaleCurrencyCode'>
  >;

/**
 * `economics` amounts carry the entry's direction: a refund's or chargeback's are the negation
 * of the sale's, a sale's and a pull's positive.
 */
function activityRow(kind: ActivityKind, entry: ActivityEntry) {
  const direction = SIGNS[kind] < 0 ? -1 : 1;
  return {
    id: uuidv7(entry.at),
    seller_company_id: entry.sellerId,
    environment: entry.environment,
    kind,
    sign: SIGNS[kind],
    order_id: entry.orderId,
    order_reference: entry.orderReference,
    counterparty_company_id: entry.publisherId,
    sku_code: entry.skuCode,
    quantity: entry.quantity,
    promo_id: entry.promo?.sourceId ?? null,
    buyer_country: JSON.stringify({
      declaredCountry: entry.customerRegionCode,
      detectedCountry: entry.detectedCountryCode,
      countryMismatch: entry.countryMismatch,
      evidenceRank: entry.evidenceRank,
    }),
    economics: JSON.stringify({
      currencyCode: entry.currencyCode ?? null,
      saleMinor:
        entry.unitPriceCents === undefined ? null : direction * entry.unitPriceCents * entry.quantity,
      wholesaleMinor:
        entry.wholesaleUnitCents == null ? null : direction * entry.wholesaleUnitCents * entry.quantity,
      wholesaleCurrencyCode: entry.wholesaleCurrencyCode ?? null,
    }),
    created_at: entry.at,
  };
}

/** One settlement activity entry (custody pulls record `pull`, sales `sale`). */
export async function recordActivity(trx: Executor, kind: ActivityKind, entry: ActivityEntry): Promise<void> {
  await repo.insertActivity(trx, activityRow(kind, entry));
}

export const saleLinesOfOrder = repo.saleLinesOfOrder;
export const activityOfOrder = repo.activityOfOrder;

/** The first sale or custody pull of a seller in one environment (integration readiness). */
export const firstOrderOf = firstMovement;
