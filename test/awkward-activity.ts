import { type Kysely, sql } from 'kysely';
import type { ActivityRow } from '../src/modules/finance/activity.repo.js';

/** The first CSV line the three awkward rows give, newest first (`e3`, a refund). */
export const AWKWARD_FIRST_LINE =
  'e3,2023-11-14T22:13:20.003Z,refund,-1,"ref,3",SKU,1,pub,"Say ""hi"", Ltd",,DE,,false,2,EUR,3000,-3000,700,-700,EUR';

/**
 * A table `acts` shaped as the activity rows, holding three of them with what CSV must quote
 * (commas, quotes) and a null: the fixture of the reader threads' byte-for-byte checks.
 * `createdAt` is the column type of the engine (bigint on PostgreSQL, integer on SQLite).
 */
export async function awkwardActivityRows(
  db: Kysely<{ acts: ActivityRow }>,
  createdAt: 'bigint' | 'integer',
) {
  await sql`create table acts (id text, created_at ${sql.raw(createdAt)}, kind text, sign integer,
    order_reference text, sku_code text, quantity integer, counterparty_company_id text,
    counterparty_name text, promo_id text, buyer_country text, economics text)`.execute(db);
  const buyer = JSON.stringify({
    declaredCountry: 'DE',
    detectedCountry: null,
    countryMismatch: false,
    evidenceRank: 2,
  });
  await db
    .insertInto('acts')
    .values(
      [1, 2, 3].map((n) => ({
        id: `e${n}`,
        created_at: 1_700_000_000_000 + n,
        kind: n === 3 ? 'refund' : 'sale',
        sign: n === 3 ? -1 : 1,
        order_reference: `ref,${n}`,
        sku_code: 'SKU',
        quantity: 1,
        counterparty_company_id: 'pub',
        counterparty_name: 'Say "hi", Ltd',
        promo_id: null,
        buyer_country: buyer,
        economics: JSON.stringify({
          currencyCode: 'EUR',
          saleMinor: 1000 * n,
          wholesaleMinor: 700,
          wholesaleCurrencyCode: 'EUR',
        }),
      })) as never,
    )
    .execute();
}
