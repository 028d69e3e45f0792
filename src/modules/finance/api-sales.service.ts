import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import { heavyReader } from '../../db/replica.js';
import { fail } from '../../http/errors.js';
import { type CursorKey, page } from '../../http/pagination.js';
import { isoOf } from '../../lib/clock.js';
import type { SaleLinesTable } from './finance.table.js';
import { findSaleLine, listSaleLines, type SaleLineFilter, type SellerRows } from './sales-read.repo.js';

type SaleLineRow = Selectable<SaleLinesTable>;

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** A finance sale line as GET /finance/api-sales shows it; amounts in minor units, reversals negated. */
export function saleLineView(row: SaleLineRow) {
  const settlement = json<Record<string, unknown>>(row.settlement);
  return {
    transactionId: row.id,
    entryType: row.entry_type,
    reversesTransactionId: row.reverses_transaction_id,
    orderId: row.order_id,
    orderReference: row.order_reference,
    skuCode: row.sku_code,
    quantity: Number(row.quantity),
    currencyCode: row.currency_code,
    unitPriceCents: Number(row.unit_price_cents),
    salePriceCents: Number(row.sale_price_cents),
    initialSalePriceCents: Number(row.initial_sale_price_cents),
    wholesaleCents: row.wholesale_cents === null ? null : Number(row.wholesale_cents),
    wholesaleCurrencyCode: row.wholesale_currency_code,
    counterpartyCompanyId: row.publisher_company_id,
    promo: json<{ sourceType: string; sourceId: string }>(row.promo),
    taxMetadata: json<Record<string, unknown>>(row.tax_metadata) ?? {},
    customerRegionCode: row.customer_region_code,
    detectedCountryCode: row.detected_country_code,
    countryMismatch: row.country_mismatch === 1,
    warnings: json<string[]>(row.warnings) ?? [],
    integrationOrderContext: { consumerIpHash: row.consumer_ip_hash },
    consumerIpRedacted: row.consumer_ip_redacted === 1,
    settlement: settlement && {
      basis: settlement.basis ?? null,
      appliedRatePercent: settlement.appliedRatePercent ?? null,
      declaredRatePercent: settlement.declaredRatePercent ?? null,
      rateReason: settlement.rateReason ?? null,
      evidenceRank: settlement.evidenceRank ?? null,
      grossMinor: settlement.grossMinor ?? null,
      vatMinor: settlement.vatMinor ?? null,
      netMinor: settlement.netMinor ?? null,
    },
    createdAt: isoOf(Number(row.created_at)),
  };
}

export async function listApiSales(
  ctx: AppContext,
  filter: SaleLineFilter,
  urlFor: (cursor: string) => string,
) {
  const rows = await listSaleLines(await heavyReader(ctx, filter.sellerId), filter);
  const paged = page(rows, filter.limit, (r): CursorKey => [Number(r.created_at), r.id], urlFor);
  return { data: paged.data.map(saleLineView), meta: paged.meta };
}

export async function getApiSale(ctx: AppContext, scope: SellerRows, transactionId: string) {
  const row = await findSaleLine(await heavyReader(ctx, scope.sellerId), scope, transactionId);
  if (!row) throw fail('NOT_FOUND', `No sale line ${transactionId}.`);
  return saleLineView(row);
}
