import type { Kysely } from 'kysely';

/** Rows rewritten per statement batch: memory stays flat whatever the ledger's size. */
const BATCH = 500;

const negative = (v: unknown) => (typeof v === 'number' ? -Math.abs(v) : v);

/**
 * Exact reversals (docs/finance.md): every money field of a `sale_reversal` row is the negation
 * of its sale's, and a refund's or chargeback's activity economics too. Rows written before
 * carried the sale's settlement amounts (`grossMinor`, `vatMinor`, `netMinor`) and the economics
 * as magnitudes; this negates them where they are still positive, so running it twice changes
 * nothing. A reinstatement row copied its reversal's (then positive) settlement, which is right.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema before it is typed
export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(
    db,
    'sale_lines',
    'settlement',
    (q) => q.where('entry_type', '=', 'sale_reversal'),
    (s) => ({
      ...s,
      grossMinor: negative(s.grossMinor ?? null),
      vatMinor: negative(s.vatMinor ?? null),
      netMinor: negative(s.netMinor ?? null),
    }),
  );
  await rewrite(
    db,
    'activity_entries',
    'economics',
    (q) => q.where('kind', 'in', ['refund', 'chargeback']),
    (e) => ({
      ...e,
      saleMinor: negative(e.saleMinor ?? null),
      wholesaleMinor: negative(e.wholesaleMinor ?? null),
    }),
  );
}

async function rewrite(
  // biome-ignore lint/suspicious/noExplicitAny: see up
  db: Kysely<any>,
  table: string,
  column: string,
  // biome-ignore lint/suspicious/noExplicitAny: see up
  filter: (q: any) => any,
  change: (value: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await filter(db.selectFrom(table).select(['id', column]))
      .where('id', '>', after)
      .where(column, 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as { id: string; [k: string]: string }[];
    for (const row of rows) {
      const before = row[column]!;
      const next = JSON.stringify(change(JSON.parse(before) as Record<string, unknown>));
      if (next !== before)
        await db
          .updateTable(table)
          .set({ [column]: next })
          .where('id', '=', row.id)
          .execute();
    }
    if (rows.length < BATCH) return;
    after = rows.at(-1)!.id;
  }
}

/** The negated amounts stay: they are what the rows always meant. */
export async function down(): Promise<void> {}
