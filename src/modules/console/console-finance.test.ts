import { describe, expect, it } from 'vitest';
import { type ConsoleUser, consoleCall, consoleUser } from '../../../test/console.js';
import { makeSeller } from '../../../test/factories.js';
import { seedMixedMonth, sellerGet } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { expectApiError } from '../../../test/route-contract.js';
import { periodContaining } from '../finance/totals.js';

const t = useTestApp();

const seededMonth = async (user: ConsoleUser) => periodContaining(await seedMixedMonth(t, user.seller));

describe('console finance', () => {
  it('answers statements, api-sales, activity and invoices exactly as the seller API, to the cent', async () => {
    const finance = await consoleUser(t, 'finance');
    const month = await seededMonth(finance);
    const same = async (consolePath: string, apiPath: string) => {
      const fromConsole = await consoleCall(t, finance, 'GET', consolePath);
      const fromApi = await sellerGet(t, finance.seller, apiPath);
      expect(fromConsole.status, JSON.stringify(fromConsole.body)).toBe(200);
      expect(fromApi.status).toBe(200);
      expect(fromConsole.body.data).toEqual(fromApi.body.data);
      return fromConsole.body;
    };
    const statements = await same(
      `/finance/statements?from=${month.period}`,
      `/finance/statements?from=${month.period}`,
    );
    expect(
      Object.fromEntries(
        statements.data.map((l: Record<string, unknown>) => [
          l.currencyCode,
          [l.grossSalesCents, l.refundedCents, l.reinstatedCents, l.netSalesCents],
        ]),
      ),
    ).toEqual({ USD: [7996, 5997, 1999, 3998], EUR: [400, 300, 0, 100] });
    const sales = await same('/finance/api-sales?limit=100', '/finance/api-sales?limit=100');
    expect(sales.data).toHaveLength(9);
    await same(
      '/finance/api-sales?entryType=sale_reversal&currencyCode=EUR',
      '/finance/api-sales?entryType=sale_reversal&currencyCode=EUR',
    );
    const activity = await same('/finance/activity?limit=100', '/activity?limit=100');
    const signed = (activity.data as { economics: { currencyCode: string; signedSaleMinor: number } }[])
      .filter((e) => e.economics.currencyCode === 'USD')
      .reduce((sum, e) => sum + e.economics.signedSaleMinor, 0);
    expect(signed).toBe(3998);
    await same('/finance/activity?kinds=refund,chargeback', '/activity?kinds=refund,chargeback');
    const paged = await same('/finance/activity?limit=2', '/activity?limit=2');
    await same(
      `/finance/activity?limit=2&cursor=${paged.meta.nextCursor}`,
      `/activity?limit=2&cursor=${paged.meta.nextCursor}`,
    );
    await same('/finance/invoices', '/finance/invoices');
    expectApiError(
      await consoleCall(t, finance, 'GET', '/finance/activity?kinds=gift'),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('exports the activity through the report job, with the CSV of GET /activity?format=csv', async () => {
    const owner = await consoleUser(t, 'owner');
    await seededMonth(owner);
    const started = await consoleCall(t, owner, 'POST', '/finance/reports', { kinds: 'sale' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    let report = (await consoleCall(t, owner, 'GET', `/finance/reports/${started.body.reportId}`)).body.data;
    for (let i = 0; i < 50 && report.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      report = (await consoleCall(t, owner, 'GET', `/finance/reports/${started.body.reportId}`)).body.data;
    }
    expect(report).toMatchObject({ status: 'ready', rows: 6, filters: { kinds: ['sale'] } });
    const artifact = await t.app.inject({
      method: 'GET',
      url: new URL(report.downloadUrl).pathname + new URL(report.downloadUrl).search,
    });
    expect(artifact.statusCode).toBe(200);
    const { gunzipSync } = await import('node:zlib');
    const csv = gunzipSync(artifact.rawPayload).toString('utf8');
    const direct = await sellerGet(t, owner.seller, '/activity?format=csv&kinds=sale');
    expect(csv).toBe(direct.raw);

    // The same file uncompressed, for the session's company only.
    const plain = await consoleCall(t, owner, 'GET', `/finance/reports/${report.reportId}/csv`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(plain.headers['content-disposition']).toBe(
      `attachment; filename="activity-${report.reportId}.csv"`,
    );
    expect(plain.raw).toBe(csv);
    const stranger = await consoleUser(t, 'owner');
    expectApiError(
      await consoleCall(t, stranger, 'GET', `/finance/reports/${report.reportId}/csv`),
      404,
      'NOT_FOUND',
    );
    expectApiError(
      await consoleCall(t, owner, 'GET', '/finance/reports/not-a-uuid/csv'),
      422,
      'VALIDATION_FAILED',
    );
  });

  it('opens finance to owners and finance only; finance cannot create keys; tenancy holds', async () => {
    const finance = await consoleUser(t, 'finance');
    const viewer = await consoleUser(t, 'viewer', finance.seller);
    const developer = await consoleUser(t, 'developer', finance.seller);
    for (const user of [viewer, developer]) {
      for (const path of [
        '/finance/statements',
        '/finance/api-sales',
        '/finance/activity',
        '/finance/invoices',
      ]) {
        expectApiError(await consoleCall(t, user, 'GET', path), 403, 'FORBIDDEN');
      }
      expectApiError(await consoleCall(t, user, 'POST', '/finance/reports', {}), 403, 'FORBIDDEN');
    }
    const session = await consoleCall(t, finance, 'GET', '/session');
    expect(session.body.data.capabilities).toEqual(['notices:mark', 'orders:refund', 'finance:read']);
    expectApiError(
      await consoleCall(t, finance, 'POST', '/keys', {
        name: 'sneaky',
        scopes: ['seller:products:read'],
        allowedIps: [],
      }),
      403,
      'FORBIDDEN',
    );

    await seededMonth(finance);
    const stranger = await consoleUser(t, 'finance', await makeSeller(t));
    expect((await consoleCall(t, stranger, 'GET', '/finance/api-sales')).body.data).toEqual([]);
    expect((await consoleCall(t, stranger, 'GET', '/finance/statements')).body.data).toEqual([]);
    const sale = (await consoleCall(t, finance, 'GET', '/finance/api-sales?limit=1')).body.data[0];
    const reportOfOther = await consoleCall(t, finance, 'POST', '/finance/reports', {});
    expectApiError(
      await consoleCall(t, stranger, 'GET', `/finance/reports/${reportOfOther.body.reportId}`),
      404,
      'NOT_FOUND',
    );
    expect(sale.transactionId).toBeDefined();
  });
});
