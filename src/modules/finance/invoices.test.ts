import { describe, expect, it } from 'vitest';
import { admin, eventsFor } from '../../../test/admin.js';
import { alwaysOrder } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { placeSale, reverseSale, sellerGet } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { describeRouteContract } from '../../../test/route-contract.js';
import { periodContaining } from './totals.js';

// This file moves the test clock forward past the end of the month the sales are placed in.
const t = useTestApp();

const closeOf = (seller: TestSeller, period: string, status = 201) =>
  admin(
    t,
    'POST',
    '/finance/invoices',
    { sellerCompanyId: seller.company.id, environment: 'sandbox', period },
    status,
  );

const invoiceUrl = async (_t: unknown, seller: TestSeller) => {
  const invoice = await closeOf(seller, '2026-01');
  return `/api/seller/v1/finance/invoices/${invoice.invoiceId}`;
};

describeRouteContract('GET /finance/invoices/{invoiceId}', t, {
  method: 'GET',
  url: invoiceUrl,
  scopes: ['seller:finance:read'],
  otherCompanyUrl: invoiceUrl,
  badInput: { url: '/api/seller/v1/finance/invoices/nope' },
});
describeRouteContract('GET /finance/invoices', t, {
  method: 'GET',
  url: () => '/api/seller/v1/finance/invoices',
  scopes: ['seller:finance:read'],
});

describe('invoices: the operator closes a month', () => {
  it('refuses a month that has not ended and a company that does not exist', async () => {
    const seller = await makeSeller(t);
    const current = periodContaining(t.ctx.clock.now());
    const refused = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/finance/invoices',
      headers: { authorization: `Bearer ${t.config.adminToken}` },
      payload: { sellerCompanyId: seller.company.id, environment: 'sandbox', period: current.period },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await eventsFor(t, seller.company.id, 'invoice.created')).toEqual([]);
    await admin(
      t,
      'POST',
      '/finance/invoices',
      { sellerCompanyId: '0190a000-0000-7000-8000-000000000000', environment: 'sandbox', period: '2026-01' },
      404,
    );
  });

  it('freezes the statement of the month into an invoice, emits invoice.created once, and later refunds leave it alone', async () => {
    const seller = await makeSeller(t);
    const first = await placeSale(t, seller, alwaysOrder({ quantity: 2 }));
    await placeSale(t, seller, alwaysOrder());
    const month = periodContaining(t.ctx.clock.now());
    t.ctx.testClock!.advance((month.end - t.ctx.clock.now()) / 1000 + 60);

    const before = await sellerGet(t, seller, `/finance/statements?from=${month.period}&to=${month.period}`);
    const invoice = await closeOf(seller, month.period);
    expect(invoice).toMatchObject({
      period: month.period,
      periodStart: new Date(month.start).toISOString(),
      periodEnd: new Date(month.end).toISOString(),
      lines: [expect.objectContaining({ currencyCode: 'USD', grossSalesCents: 5997, netSalesCents: 5997 })],
    });
    const { invoiceId: _none, ...statementLine } = before.body.data[0];
    expect(invoice.lines).toEqual([statementLine]);

    const events = await eventsFor(t, seller.company.id, 'invoice.created');
    expect(events.map((e) => e.data)).toEqual([
      { invoiceId: invoice.invoiceId, periodStart: invoice.periodStart, periodEnd: invoice.periodEnd },
    ]);
    const again = await closeOf(seller, month.period, 200);
    expect(again).toEqual(invoice);
    expect(await eventsFor(t, seller.company.id, 'invoice.created')).toHaveLength(1);

    // A refund declared now is dated now: it lowers this month, never the invoiced one.
    await reverseSale(t, first, t.ctx.clock.now());
    const fetched = await sellerGet(t, seller, `/finance/invoices/${invoice.invoiceId}`);
    expect(fetched.body.data).toEqual(invoice);
    const after = await sellerGet(t, seller, `/finance/statements?from=${month.period}&to=${month.period}`);
    expect(after.body.data).toEqual([{ ...statementLine, invoiceId: invoice.invoiceId }]);
    const list = await sellerGet(t, seller, '/finance/invoices');
    expect(list.body.data.map((i: { invoiceId: string }) => i.invoiceId)).toEqual([invoice.invoiceId]);
  });
});
