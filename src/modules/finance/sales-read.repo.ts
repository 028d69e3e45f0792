import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { heavyRead } from '../../db/heavy-read.js';
import type { SaleEntryType } from './finance.table.js';

export interface SellerRows {
  sellerId: string;
  environment: string;
}

export interface SaleLineFilter extends SellerRows {
  from?: number;
  to?: number;
  orderReference?: string;
  entryType?: SaleEntryType;
  currencyCode?: string;
  /** Keyset: rows strictly older than (created_at, id). */
  before?: readonly [number, string];
  limit: number;
}

/** Sale lines of one seller, newest first, one more than the page. */
export function listSaleLines(ex: Executor, f: SaleLineFilter) {
  let query = ex
    .selectFrom('sale_lines')
    .selectAll()
    .where('seller_company_id', '=', f.sellerId)
    .where('environment', '=', f.environment);
  if (f.from !== undefined) query = query.where('created_at', '>=', f.from);
  if (f.to !== undefined) query = query.where('created_at', '<', f.to);
  if (f.orderReference) query = query.where('order_reference', '=', f.orderReference);
  // A literal, so that both engines match the partial index of reversals (its condition).
  if (f.entryType) query = query.where('entry_type', '=', sql.lit(f.entryType));
  if (f.currencyCode) query = query.where('currency_code', '=', f.currencyCode);
  if (f.before) {
    const [at, id] = f.before;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(at, id)));
  }
  // A page of the api-sales list or export: off the event loop on SQLite (heavy-read.ts).
  return heavyRead(
    ex,
    query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit + 1),
  );
}

export function findSaleLine(ex: Executor, scope: SellerRows, id: string) {
  return ex
    .selectFrom('sale_lines')
    .selectAll()
    .where('id', '=', id)
    .where('seller_company_id', '=', scope.sellerId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

// A reinstatement is a `sale` row that names the reversal it undoes (docs/finance.md).
const ORIGINAL_SALE = sql`entry_type = 'sale' and reverses_transaction_id is null`;
const REVERSAL = sql`entry_type = 'sale_reversal'`;
const REINSTATEMENT = sql`entry_type = 'sale' and reverses_transaction_id is not null`;
const total = (when: ReturnType<typeof sql>, value: ReturnType<typeof sql>) =>
  sql<number>`cast(coalesce(sum(case when ${when} then ${value} else 0 end), 0) as bigint)`;

/**
 * Signed sums of the sale lines created in [from, to), grouped by sale currency and wholesale
 * currency. Amounts are as stored: reversal rows carry negated amounts.
 */
export function saleTotals(ex: Executor, scope: SellerRows, from: number, to: number) {
  return heavyRead(
    ex,
    ex
      .selectFrom('sale_lines')
      .select([
        'currency_code',
        'wholesale_currency_code',
        total(ORIGINAL_SALE, sql`sale_price_cents`).as('gross'),
        total(REVERSAL, sql`sale_price_cents`).as('reversed'),
        total(REINSTATEMENT, sql`sale_price_cents`).as('reinstated'),
        total(ORIGINAL_SALE, sql`1`).as('sale_count'),
        total(REVERSAL, sql`1`).as('reversal_count'),
        total(REINSTATEMENT, sql`1`).as('reinstatement_count'),
        total(ORIGINAL_SALE, sql`quantity`).as('keys_sold'),
        total(REVERSAL, sql`abs(quantity)`).as('keys_reversed'),
        total(sql`wholesale_cents is not null`, sql`wholesale_cents`).as('wholesale'),
      ])
      .where('seller_company_id', '=', scope.sellerId)
      .where('environment', '=', scope.environment)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy(['currency_code', 'wholesale_currency_code'])
      .orderBy('currency_code')
      .orderBy('wholesale_currency_code'),
  );
}
