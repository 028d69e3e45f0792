import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { eventsFor } from '../../../test/admin.js';
import { alwaysOrder, post, US_SALE } from '../../../test/checkout.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { euroOrder, placeSale, reverseSale, sellerGet } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract, expectApiError } from '../../../test/route-contract.js';
import { SANDBOX_PUBLISHER_ID } from '../sandbox/fixtures.js';
import type { ActivityEntry } from './activity.service.js';
import { ACTIVITY_CSV_COLUMNS } from './activity-csv.mjs';

const t = useTestApp();
const read = ['seller:products:read'] as const;

describeRouteContract('GET /activity', t, {
  method: 'GET',
  url: () => '/api/seller/v1/activity',
  scopes: [...read],
  badInput: { url: '/api/seller/v1/activity?kinds=sale,gift' },
});
describeRouteContract('GET /activity?format=csv', t, {
  method: 'GET',
  url: () => '/api/seller/v1/activity?format=csv',
  scopes: [...read],
  badInput: { url: '/api/seller/v1/activity?format=xml' },
});
describeRouteContract('GET /transactions', t, {
  method: 'GET',
  url: () => '/api/seller/v1/transactions',
  scopes: [...read],
  badInput: { url: '/api/seller/v1/transactions?limit=0' },
});
describeRouteContract('GET /usage', t, {
  method: 'GET',
  url: () => '/api/seller/v1/usage',
  scopes: [...read],
  badInput: { url: '/api/seller/v1/usage?from=2026-01-01&to=2026-03-01' },
});
describeRouteContract('POST /reports', t, {
  method: 'POST',
  url: () => '/api/seller/v1/reports',
  body: { kinds: 'sale' },
  scopes: [...read],
  badInput: { body: { kinds: 'sale;drop' } },
});
const reportUrl = async (_t: unknown, seller: TestSeller) => {
  const started = await post(t, seller, '/reports', {});
  return `/api/seller/v1/reports/${started.body.reportId}`;
};
describeRouteContract('GET /reports/{reportId}', t, {
  method: 'GET',
  url: reportUrl,
  scopes: [...read],
  otherCompanyUrl: reportUrl,
  badInput: { url: '/api/seller/v1/reports/not-a-uuid' },
});

const settle = () => Promise.all([...t.ctx.background]);

/** RFC 4180 parse of a whole body (quoted fields may hold commas, quotes and CRLF). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    i += 1;
    if (quoted && c === '"' && next === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += c;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && next === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      field += c;
    }
  }
  expect(field).toBe('');
  return records;
}

describe('GET /activity', () => {
  it('lists signed entries with counterparty, promo, buyer-country evidence and economics, filtered', async () => {
    const seller = await makeSeller(t);
    const sale = await placeSale(t, seller, alwaysOrder({ quantity: 2, orderReference: 'act-1' }));
    await placeSale(t, seller, euroOrder());
    const pull = await post(t, seller, '/keys/pull', {
      skuCode: 'SANDBOX-ALWAYS-001',
      quantity: 3,
      countryCode: 'US',
      integrationOrderContext: US_SALE,
    });
    expect(pull.status, JSON.stringify(pull.body)).toBe(200);
    await reverseSale(t, sale, t.ctx.clock.now() + 1);

    const all = await sellerGet(t, seller, '/activity');
    expect(all.body.data.map((e: { kind: string }) => e.kind)).toEqual(['refund', 'pull', 'sale', 'sale']);
    const refund = all.body.data[0];
    expect(refund).toMatchObject({
      kind: 'refund',
      sign: -1,
      orderReference: 'act-1',
      quantity: 2,
      counterparty: { companyId: SANDBOX_PUBLISHER_ID, name: expect.any(String) },
      promoId: null,
      buyerCountry: { declaredCountry: 'US', countryMismatch: false, evidenceRank: 3 },
      economics: { currencyCode: 'USD', saleMinor: -3998, signedSaleMinor: -3998 },
    });
    expect(all.body.data[1]).toMatchObject({ kind: 'pull', sign: 1, quantity: 3 });

    const refunds = await sellerGet(t, seller, '/activity?kinds=refund,chargeback');
    expect(refunds.body.data).toHaveLength(1);
    const byRef = await sellerGet(t, seller, '/activity?orderReference=act-1');
    expect(byRef.body.data.map((e: { kind: string }) => e.kind)).toEqual(['refund', 'sale']);
    const other = await sellerGet(t, seller, `/activity?counterparty=${seller.company.id}`);
    expect(other.body.data).toEqual([]);
    const page = await sellerGet(t, seller, '/activity?limit=3');
    expect(page.body.meta).toMatchObject({ hasMore: true, count: 3 });
    const rest = await sellerGet(t, seller, page.body.meta.nextUrl.replace('/api/seller/v1', ''));
    expect(rest.body.data).toEqual([all.body.data[3]]);
  });

  it('streams RFC 4180 CSV: a header row, CRLF records, quoted commas and quotes, the same entries as JSON', async () => {
    const seller = await makeSeller(t);
    const awkward = 'ref,with"quote';
    const sale = await placeSale(t, seller, alwaysOrder({ orderReference: awkward }));
    await placeSale(t, seller, euroOrder(2));
    await reverseSale(t, sale, t.ctx.clock.now() + 1);
    const res = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/activity?format=csv',
      headers: seller.auth,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.raw).toContain('"ref,with""quote"');
    expect(res.raw.endsWith('\r\n')).toBe(true);
    const [header, ...records] = parseCsv(res.raw);
    expect(header).toEqual([...ACTIVITY_CSV_COLUMNS]);
    const json = (await sellerGet(t, seller, '/activity')).body.data;
    expect(records).toHaveLength(json.length);
    const column = (name: (typeof ACTIVITY_CSV_COLUMNS)[number]) => ACTIVITY_CSV_COLUMNS.indexOf(name);
    const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    const expected = json.map((e: ActivityEntry) =>
      [
        e.entryId,
        e.createdAt,
        e.kind,
        e.sign,
        e.orderReference,
        e.skuCode,
        e.quantity,
        e.counterparty.companyId,
        e.counterparty.name,
        e.promoId,
        e.buyerCountry.declaredCountry,
        e.buyerCountry.detectedCountry,
        e.buyerCountry.countryMismatch,
        e.buyerCountry.evidenceRank,
        e.economics.currencyCode,
        e.economics.saleMinor,
        e.economics.signedSaleMinor,
        e.economics.wholesaleMinor,
        e.economics.signedWholesaleMinor,
        e.economics.wholesaleCurrencyCode,
      ].map(text),
    );
    expect(records).toEqual(expected);
    expect(records[2]![column('orderReference')]).toBe(awkward);
    expect(records[0]).toMatchObject({
      [column('kind')]: 'refund',
      [column('saleMinor')]: '-1999',
      [column('signedSaleMinor')]: '-1999',
    });
    expect(records[1]).toMatchObject({
      [column('kind')]: 'sale',
      [column('currencyCode')]: 'EUR',
      [column('saleMinor')]: '200',
      [column('promoId')]: '',
    });
    const filtered = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/activity?format=csv&kinds=refund',
      headers: seller.auth,
    });
    expect(parseCsv(filtered.raw)).toEqual([[...ACTIVITY_CSV_COLUMNS], records[0]]);
  });
});

describe('GET /transactions', () => {
  it('is the wholesale ledger: sales, pulls and reversals signed, reveals left out', async () => {
    const seller = await makeSeller(t);
    const sale = await placeSale(t, seller, alwaysOrder({ quantity: 2 }));
    await reverseSale(t, sale, t.ctx.clock.now() + 1, 'chargeback');
    const ledger = await sellerGet(t, seller, '/transactions');
    expect(ledger.body.data).toEqual([
      expect.objectContaining({ kind: 'chargeback', keys: -2 }),
      expect.objectContaining({ kind: 'sale', keys: 2, counterpartyCompanyId: SANDBOX_PUBLISHER_ID }),
    ]);
    const [reversal, original] = ledger.body.data;
    expect(reversal.wholesaleMinor).toBe(original.wholesaleMinor === null ? null : -original.wholesaleMinor);
  });
});

describe('GET /usage', () => {
  it('counts API calls per route class and day, and keys taken, off the request path', async () => {
    const seller = await makeSeller(t);
    await sellerGet(t, seller, '/products?limit=1');
    await sellerGet(t, seller, '/products?limit=1');
    await placeSale(t, seller, alwaysOrder({ quantity: 3 }));
    const today = new Date(t.ctx.clock.now()).toISOString().slice(0, 10);
    const first = await sellerGet(t, seller, '/usage');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(7);
    expect(first.body.data.at(-1)).toEqual({
      date: today,
      apiCalls: { catalog: 2, orders: 1, finance: 0, webhooks: 0, general: 0, total: 3 },
      keysPulled: 3,
    });
    expect(first.body.meta.rateLimits).toMatchObject({
      rateLimited: true,
      perMinutePerRouteClass: { write: 600, read: 1200, 'read-cached': 12000 },
    });
    const second = await sellerGet(t, seller, `/usage?from=${today}&to=${today}`);
    expect(second.body.data).toEqual([
      expect.objectContaining({ apiCalls: expect.objectContaining({ finance: 1 }) }),
    ]);
  });
});

describe('reports: asynchronous activity export', () => {
  it('builds the gzip CSV, announces report.ready with its data fields, and serves it behind a signed link', async () => {
    const seller = await makeSeller(t);
    await placeSale(t, seller, alwaysOrder());
    await placeSale(t, seller, euroOrder());
    const started = await post(t, seller, '/reports', { kinds: 'sale' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ reportType: 'activity_csv', status: 'pending' });
    await settle();
    const status = await sellerGet(t, seller, `/reports/${started.body.reportId}`);
    expect(status.body.data).toMatchObject({ status: 'ready', rows: 2, filters: { kinds: ['sale'] } });
    const [event] = await eventsFor(t, seller.company.id, 'report.ready');
    expect(event!.data).toEqual({
      reportId: started.body.reportId,
      reportType: 'activity_csv',
      readyAt: status.body.data.readyAt,
    });
    const link = new URL(status.body.data.downloadUrl);
    const artifact = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(artifact.statusCode).toBe(200);
    const csv = gunzipSync(artifact.rawPayload).toString('utf8');
    const live = await call(t, {
      method: 'GET',
      url: '/api/seller/v1/activity?format=csv&kinds=sale',
      headers: seller.auth,
    });
    expect(csv).toBe(live.raw);

    const forged = await t.app.inject({
      method: 'GET',
      url: `${link.pathname}?expires=${link.searchParams.get('expires')}&signature=${'0'.repeat(43)}`,
    });
    expect(forged.statusCode).toBe(403);
  });

  it('answers 404 for an unknown report', async () => {
    const seller = await makeSeller(t);
    expectApiError(
      await sellerGet(t, seller, '/reports/0190a000-0000-7000-8000-000000000000'),
      404,
      'NOT_FOUND',
    );
  });
});
