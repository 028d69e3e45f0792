import { describe, expect, it } from 'vitest';
import { order, refund } from '../../../test/after-sale.js';
import { ref } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { euroOrder } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { SCOPES } from '../../http/auth/scopes.js';

const t = useTestApp();

describe('reversal rows negate every money field of their sale (GET /finance/api-sales, /activity)', () => {
  it('a full refund of a taxed sale: sale amounts, settlement, wholesale and activity economics negated', async () => {
    const seller = await makeSeller(t, { scopes: [...SCOPES] });
    // Two keys at 1.19 EUR gross each: the declaration and the settlement are per key.
    const body = euroOrder(2);
    const placed = await order(t, seller, {
      ...body,
      integrationOrderContext: { ...body.integrationOrderContext, salesPriceGrossMinor: 119 },
    });
    const refunded = await refund(t, seller, {
      type: 'refund',
      refundReference: ref('rf'),
      keyIds: placed.keyIds,
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const get = (path: string) =>
      call(t, { method: 'GET', url: `/api/seller/v1${path}`, headers: seller.auth });
    const lines = (await get(`/finance/api-sales?orderReference=${placed.orderReference}`)).body.data;
    const sale = lines.find((l: { entryType: string }) => l.entryType === 'sale');
    const reversal = lines.find((l: { entryType: string }) => l.entryType === 'sale_reversal');
    expect(sale.settlement).toMatchObject({ grossMinor: 119, vatMinor: 19, netMinor: 100 });
    expect(reversal).toMatchObject({
      reversesTransactionId: sale.transactionId,
      quantity: -2,
      salePriceCents: -sale.salePriceCents,
      initialSalePriceCents: -sale.initialSalePriceCents,
      wholesaleCents: -sale.wholesaleCents,
      settlement: { ...sale.settlement, grossMinor: -119, vatMinor: -19, netMinor: -100 },
    });
    const activity = (await get(`/activity?orderReference=${placed.orderReference}`)).body.data;
    const sold = activity.find((e: { kind: string }) => e.kind === 'sale');
    const back = activity.find((e: { kind: string }) => e.kind === 'refund');
    expect(back.economics).toEqual({
      ...sold.economics,
      saleMinor: -sold.economics.saleMinor,
      wholesaleMinor: -sold.economics.wholesaleMinor,
      signedSaleMinor: -sold.economics.signedSaleMinor,
      signedWholesaleMinor: -sold.economics.signedWholesaleMinor,
    });
  });
});
