import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './finance.repo.js';
import { recordActivity } from './finance.service.js';
import type { SaleLinesTable } from './finance.table.js';

export type SaleLine = Selectable<SaleLinesTable>;

/** An amount of a whole line divided per key: exact, since the line was written as unit x quantity. */
function perKey(total: number, quantity: number): number {
  if (total % quantity !== 0) throw new Error(`sale line amount ${total} is not ${quantity} equal parts`);
  return total / quantity;
}

/**
 * The settlement object of a row that undoes another: its amounts negated (a reversal row
 * carries the sale's amounts negated; a reinstatement negates them back). The amounts are per
 * key, as declared, so a partial reversal negates them whole.
 */
function negatedSettlement(settlement: string | null): string | null {
  if (settlement === null) return null;
  const s = JSON.parse(settlement) as Record<string, unknown>;
  const negate = (v: unknown) => (typeof v === 'number' ? -v : v);
  return JSON.stringify({
    ...s,
    grossMinor: negate(s.grossMinor ?? null),
    vatMinor: negate(s.vatMinor ?? null),
    netMinor: negate(s.netMinor ?? null),
  });
}

/** What a reversal (or its reinstatement) moved, in minor units, positive. */
export interface MovedAmounts {
  lineId: string;
  currencyCode: string;
  grossCents: number;
  wholesaleCents: number;
  wholesaleCurrencyCode: string | null;
}

async function activityOf(
  trx: Executor,
  kind: 'sale' | 'refund' | 'chargeback',
  line: SaleLine,
  count: number,
  at: number,
) {
  const settlement = line.settlement ? (JSON.parse(line.settlement) as { evidenceRank?: number }) : null;
  const promo = line.promo ? (JSON.parse(line.promo) as { sourceType: string; sourceId: string }) : null;
  await recordActivity(trx, kind, {
    orderId: line.order_id,
    orderReference: line.order_reference,
    sellerId: line.seller_company_id,
    environment: line.environment,
    publisherId: line.publisher_company_id,
    skuCode: line.sku_code,
    quantity: count,
    promo,
    customerRegionCode: line.customer_region_code,
    detectedCountryCode: line.detected_country_code,
    countryMismatch: line.country_mismatch === 1,
    evidenceRank: settlement?.evidenceRank ?? 3,
    currencyCode: line.currency_code,
    unitPriceCents: line.unit_price_cents,
    wholesaleUnitCents: line.wholesale_cents === null ? null : perKey(line.wholesale_cents, line.quantity),
    wholesaleCurrencyCode: line.wholesale_currency_code,
    at,
  });
}

/**
 * Reverses `count` keys of a sale line: a `sale_reversal` row with the amounts
 * negated, `reversesTransactionId` the sale and dated at the refund declaration, and a
 * `refund` or `chargeback` activity entry (-1). Inside the caller's transaction.
 */
export async function recordReversal(
  trx: Executor,
  sale: SaleLine,
  count: number,
  kind: 'refund' | 'chargeback',
  at: number,
): Promise<MovedAmounts> {
  const id = uuidv7(at);
  const gross = sale.unit_price_cents * count;
  const wholesale =
    sale.wholesale_cents === null ? null : perKey(sale.wholesale_cents, sale.quantity) * count;
  await repo.insertSaleLine(trx, {
    ...sale,
    id,
    entry_type: 'sale_reversal',
    reverses_transaction_id: sale.id,
    quantity: -count,
    sale_price_cents: -gross,
    initial_sale_price_cents: -perKey(sale.initial_sale_price_cents, sale.quantity) * count,
    wholesale_cents: wholesale === null ? null : -wholesale,
    settlement: negatedSettlement(sale.settlement),
    created_at: at,
  });
  await activityOf(trx, kind, sale, count, at);
  return {
    lineId: id,
    currencyCode: sale.currency_code,
    grossCents: gross,
    wholesaleCents: wholesale ?? 0,
    wholesaleCurrencyCode: sale.wholesale_currency_code,
  };
}

/**
 * A chargeback the seller won: each of its reversal rows gets a `sale` row again with the
 * amounts positive and `reversesTransactionId` naming the reversal it undoes (statement bucket
 * `reinstatedCents`), and a `sale` activity entry (+1).
 */
export async function recordReinstatement(
  trx: Executor,
  reversalIds: readonly string[],
  at: number,
): Promise<MovedAmounts[]> {
  const reversals = await repo.saleLinesByIds(trx, reversalIds);
  const moved: MovedAmounts[] = [];
  for (const reversal of reversals) {
    const count = -reversal.quantity;
    const line: SaleLine = {
      ...reversal,
      id: uuidv7(at),
      entry_type: 'sale',
      reverses_transaction_id: reversal.id,
      quantity: count,
      sale_price_cents: -reversal.sale_price_cents,
      initial_sale_price_cents: -reversal.initial_sale_price_cents,
      wholesale_cents: reversal.wholesale_cents === null ? null : -reversal.wholesale_cents,
      settlement: negatedSettlement(reversal.settlement),
      created_at: at,
    };
    await repo.insertSaleLine(trx, line);
    await activityOf(trx, 'sale', line, count, at);
    moved.push({
      lineId: line.id,
      currencyCode: line.currency_code,
      grossCents: line.sale_price_cents,
      wholesaleCents: line.wholesale_cents ?? 0,
      wholesaleCurrencyCode: line.wholesale_currency_code,
    });
  }
  return moved;
}

export const originalSalesOf = repo.originalSalesOf;
