import { describe, expect, it } from 'vitest';
import { alwaysOrder, US_SALE } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { euroOrder, placeSale, reverseSale, seedMixedMonth, sellerGet } from '../../../test/finance.js';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { periodContaining } from './totals.js';

const t = useTestApp();
const finance = ['seller:finance:read'] as const;

const saleUrl = async (_t: TestApp, seller: TestSeller) =>
  `/api/seller/v1/finance/api-sales/${await placeSale(t, seller, alwaysOrder())}`;

describeRouteContract('GET /finance/api-sales', t, {
  method: 'GET',
  url: () => '/api/seller/v1/finance/api-sales',
  scopes: [...finance],
  badInput: { url: '/api/seller/v1/finance/api-sales?entryType=refund' },
});
describeRouteContract('GET /finance/api-sales/{transactionId}', t, {
  method: 'GET',
  url: saleUrl,
  scopes: [...finance],
  otherCompanyUrl: saleUrl,
  badInput: { url: '/api/seller/v1/finance/api-sales/not-a-uuid' },
});
describeRouteContract('GET /finance/statements', t, {
  method: 'GET',
  url: () => '/api/seller/v1/finance/statements',
  scopes: [...finance],
  badInput: { url: '/api/seller/v1/finance/statements?from=2026-13' },
});
describeRouteContract('GET /finance/summary', t, {
  method: 'GET',
  url: () => '/api/seller/v1/finance/summary',
  scopes: [...finance],
  badInput: { url: '/api/seller/v1/finance/summary?from=yesterday' },
});

/** Every row of a paged list, following meta.nextUrl. */
async function allPages(seller: TestSeller, path: string) {
  const rows = [];
  let next: string | null = path;
  while (next) {
    const res = await sellerGet(t, seller, next.replace('/api/seller/v1', ''));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    next = res.body.meta.nextUrl;
  }
  return rows;
}

const byCurrency = (rows: { currencyCode: string }[], pick: (r: never) => number) => {
  const sums: Record<string, number> = {};
  for (const r of rows) sums[r.currencyCode] = (sums[r.currencyCode] ?? 0) + pick(r as never);
  return sums;
};

describe('GET /finance/api-sales', () => {
  it('shows every field of the contract for a sale line, in the list and by id', async () => {
    const seller = await makeSeller(t);
    const context = {
      ...US_SALE,
      salesTaxRatePercent: 10,
      salesPriceGrossMinor: 4398,
      priceIncludesTax: true,
    };
    const id = await placeSale(t, seller, alwaysOrder({ quantity: 2, integrationOrderContext: context }));
    const list = await sellerGet(t, seller, '/finance/api-sales');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const one = await sellerGet(t, seller, `/finance/api-sales/${id}`);
    expect(one.body.data).toEqual(list.body.data[0]);
    expect(one.body.data).toMatchObject({
      transactionId: id,
      entryType: 'sale',
      reversesTransactionId: null,
      skuCode: 'SANDBOX-ALWAYS-001',
      quantity: 2,
      currencyCode: 'USD',
      salePriceCents: 3998,
      initialSalePriceCents: 3998,
      promo: null,
      taxMetadata: { salesCountryCode: 'US', salesTaxRatePercent: 10, salesChannel: 'web' },
      customerRegionCode: 'US',
      countryMismatch: false,
      warnings: [],
      integrationOrderContext: { consumerIpHash: null },
      consumerIpRedacted: false,
      settlement: {
        appliedRatePercent: 10,
        declaredRatePercent: 10,
        rateReason: 'declared_rate',
        evidenceRank: 3,
        vatMinor: 400,
        netMinor: 3998,
      },
    });
    expect(one.body.data.taxMetadata).not.toHaveProperty('consumerIp');
  });

  it('filters by entry type, currency, order reference and time, and pages newest first with a cursor', async () => {
    const seller = await makeSeller(t);
    const first = await placeSale(t, seller, alwaysOrder());
    const euro = await placeSale(t, seller, euroOrder());
    const third = await placeSale(t, seller, alwaysOrder({ orderReference: 'find-me' }));
    const reversal = await reverseSale(t, first, t.ctx.clock.now() + 5);

    const page1 = await sellerGet(t, seller, '/finance/api-sales?limit=2');
    expect(page1.body.meta).toMatchObject({ count: 2, hasMore: true });
    expect(page1.body.data.map((r: { transactionId: string }) => r.transactionId)).toEqual([reversal, third]);
    const all = await allPages(seller, '/api/seller/v1/finance/api-sales?limit=2');
    expect(all.map((r) => r.transactionId)).toEqual([reversal, third, euro, first]);

    const reversals = await sellerGet(t, seller, '/finance/api-sales?entryType=sale_reversal');
    expect(reversals.body.data).toEqual([
      expect.objectContaining({
        transactionId: reversal,
        reversesTransactionId: first,
        salePriceCents: -1999,
      }),
    ]);
    const eur = await sellerGet(t, seller, '/finance/api-sales?currencyCode=EUR');
    expect(eur.body.data.map((r: { transactionId: string }) => r.transactionId)).toEqual([euro]);
    const ref = await sellerGet(t, seller, '/finance/api-sales?orderReference=find-me');
    expect(ref.body.data.map((r: { transactionId: string }) => r.transactionId)).toEqual([third]);
    const future = new Date(t.ctx.clock.now() + 60_000).toISOString();
    const none = await sellerGet(t, seller, `/finance/api-sales?from=${encodeURIComponent(future)}`);
    expect(none.body.data).toEqual([]);
  });

  it('marks lines recorded before buyer-IP hashing with consumerIpRedacted', async () => {
    const seller = await makeSeller(t);
    const id = await placeSale(t, seller, alwaysOrder());
    await t.ctx.db.updateTable('sale_lines').set({ consumer_ip_redacted: 1 }).where('id', '=', id).execute();
    const one = await sellerGet(t, seller, `/finance/api-sales/${id}`);
    expect(one.body.data).toMatchObject({
      consumerIpRedacted: true,
      integrationOrderContext: { consumerIpHash: null },
    });
  });
});

describe('reconciliation', () => {
  it('shows the same totals per currency, to the cent, in api-sales, statements, summary and activity', async () => {
    const seller = await makeSeller(t);
    const now = await seedMixedMonth(t, seller);

    const expected = {
      USD: { grossSalesCents: 7996, refundedCents: 5997, reinstatedCents: 1999, netSalesCents: 3998 },
      EUR: { grossSalesCents: 400, refundedCents: 300, reinstatedCents: 0, netSalesCents: 100 },
    };
    const nets = { USD: 3998, EUR: 100 };

    const sales = await allPages(seller, '/api/seller/v1/finance/api-sales?limit=3');
    expect(byCurrency(sales, (r: { salePriceCents: number }) => r.salePriceCents)).toEqual(nets);

    const month = periodContaining(now);
    const next = periodContaining(month.end);
    const statements = await sellerGet(
      t,
      seller,
      `/finance/statements?from=${month.period}&to=${next.period}`,
    );
    expect(statements.status).toBe(200);
    expect(byCurrency(statements.body.data, (r: { netSalesCents: number }) => r.netSalesCents)).toEqual(nets);
    if (now + 4 < month.end) {
      for (const [currencyCode, buckets] of Object.entries(expected)) {
        expect(statements.body.data).toContainEqual(expect.objectContaining({ currencyCode, ...buckets }));
      }
    }

    const from = encodeURIComponent(new Date(month.start).toISOString());
    const to = encodeURIComponent(new Date(next.end).toISOString());
    const summary = await sellerGet(t, seller, `/finance/summary?from=${from}&to=${to}`);
    for (const [currencyCode, buckets] of Object.entries(expected)) {
      expect(summary.body.data.currencies).toContainEqual(
        expect.objectContaining({ currencyCode, ...buckets }),
      );
    }
    const usdSummary = summary.body.data.currencies.find(
      (c: { currencyCode: string }) => c.currencyCode === 'USD',
    );
    expect(usdSummary).toMatchObject({ saleCount: 3, reversalCount: 2, reinstatementCount: 1, keysSold: 4 });

    const activity = await allPages(seller, '/api/seller/v1/activity?kinds=sale,refund,chargeback&limit=4');
    const signed = activity.map((e) => ({
      currencyCode: e.economics.currencyCode,
      amount: e.economics.signedSaleMinor,
    }));
    expect(byCurrency(signed, (r: { amount: number }) => r.amount)).toEqual(nets);
  });
});

describe('GET /finance/statements and /finance/summary', () => {
  it('counts a reversal in the month of its own date, and gives the same figures when asked again', async () => {
    const seller = await makeSeller(t);
    const sale = await placeSale(t, seller, alwaysOrder());
    const month = periodContaining(t.ctx.clock.now());
    const next = periodContaining(month.end);
    await reverseSale(t, sale, next.start + 86_400_000);

    const url = `/finance/statements?from=${month.period}&to=${next.period}`;
    const first = await sellerGet(t, seller, url);
    expect(first.body.data).toEqual([
      expect.objectContaining({
        period: month.period,
        currencyCode: 'USD',
        grossSalesCents: 1999,
        refundedCents: 0,
        netSalesCents: 1999,
        invoiceId: null,
      }),
      expect.objectContaining({
        period: next.period,
        currencyCode: 'USD',
        grossSalesCents: 0,
        refundedCents: 1999,
        netSalesCents: -1999,
        reversalCount: 1,
      }),
    ]);
    expect((await sellerGet(t, seller, url)).body).toEqual(first.body);

    const start = encodeURIComponent(new Date(month.start).toISOString());
    const end = encodeURIComponent(new Date(month.end).toISOString());
    const summary = await sellerGet(t, seller, `/finance/summary?from=${start}&to=${end}`);
    expect(summary.body.data.currencies).toEqual([
      expect.objectContaining({
        currencyCode: 'USD',
        grossSalesCents: 1999,
        refundedCents: 0,
        netSalesCents: 1999,
      }),
    ]);
  });

  it('refuses a span that runs backwards or is longer than 24 months', async () => {
    const seller = await makeSeller(t);
    expectApiError(
      await sellerGet(t, seller, '/finance/statements?from=2026-05&to=2026-04'),
      422,
      'VALIDATION_FAILED',
    );
    expectApiError(
      await sellerGet(t, seller, '/finance/statements?from=2020-01&to=2026-04'),
      422,
      'VALIDATION_FAILED',
    );
    const later = encodeURIComponent('2026-05-01T00:00:00Z');
    const earlier = encodeURIComponent('2026-04-01T00:00:00Z');
    expectApiError(
      await sellerGet(t, seller, `/finance/summary?from=${later}&to=${earlier}`),
      422,
      'VALIDATION_FAILED',
    );
  });

  it("keeps another company's lines out of the totals", async () => {
    const seller = await makeSeller(t);
    const other = await makeSeller(t);
    await placeSale(t, other, alwaysOrder());
    const summary = await sellerGet(t, seller, '/finance/summary');
    expect(summary.body.data.currencies).toEqual([]);
  });
});
