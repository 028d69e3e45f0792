import { describe, expect, it } from 'vitest';
import { order, refund } from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { up } from './0021_exact_reversals.js';

const t = useTestApp();

const magnitudes = (json: string) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(JSON.parse(json) as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === 'number' && k !== 'evidenceRank' ? Math.abs(v) : v,
      ]),
    ),
  );

describe('migration 0021: reversal rows stored with magnitudes are negated', () => {
  it('negates the settlement of reversal rows and the economics of refund entries, once', async () => {
    const seller = await makeSeller(t);
    const placed = await order(t, seller);
    expect(
      (await refund(t, seller, { type: 'refund', refundReference: ref('rf'), keyIds: placed.keyIds })).status,
    ).toBe(200);
    const reversal = () =>
      t.ctx.db
        .selectFrom('sale_lines')
        .select(['id', 'settlement'])
        .where('order_id', '=', placed.orderId)
        .where('entry_type', '=', 'sale_reversal')
        .executeTakeFirstOrThrow();
    const entry = () =>
      t.ctx.db
        .selectFrom('activity_entries')
        .select(['id', 'economics'])
        .where('order_id', '=', placed.orderId)
        .where('kind', '=', 'refund')
        .executeTakeFirstOrThrow();
    const written = { line: await reversal(), entry: await entry() };
    // As a release before the migration stored them: the sale's amounts, unsigned.
    await t.ctx.db
      .updateTable('sale_lines')
      .set({ settlement: magnitudes(written.line.settlement!) })
      .where('id', '=', written.line.id)
      .execute();
    await t.ctx.db
      .updateTable('activity_entries')
      .set({ economics: magnitudes(written.entry.economics) })
      .where('id', '=', written.entry.id)
      .execute();
    expect(JSON.parse((await reversal()).settlement!).netMinor).toBeGreaterThan(0);
    await up(t.ctx.db);
    expect(JSON.parse((await reversal()).settlement!)).toEqual(JSON.parse(written.line.settlement!));
    expect(JSON.parse((await entry()).economics)).toEqual(JSON.parse(written.entry.economics));
    expect(JSON.parse(written.entry.economics).saleMinor).toBe(-1999);
    await up(t.ctx.db);
    expect(JSON.parse((await reversal()).settlement!)).toEqual(JSON.parse(written.line.settlement!));
  });
});
