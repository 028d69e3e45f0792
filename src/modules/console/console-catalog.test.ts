import { describe, expect, it } from 'vitest';
import { consoleCall, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();
const API = '/api/seller/v1';
const api = (auth: { authorization: string }, url: string) =>
  call(t, { method: 'GET', url: `${API}${url}`, headers: auth });

describe('console catalog and allocations', () => {
  it('lists the same allocations, products and partners as the seller API', async () => {
    const dev = await consoleUser(t, 'developer');
    const fromApi = await api(dev.seller.auth, '/allocations?limit=100');
    const fromConsole = await consoleCall(t, dev, 'GET', '/allocations?limit=100');
    expect(fromConsole.status).toBe(200);
    expect(fromApi.body.data.length).toBeGreaterThan(0);
    expect(
      fromConsole.body.data.map(({ hotDropState: _h, figures: _f, ...row }: Record<string, unknown>) => row),
    ).toEqual(fromApi.body.data);
    const hot = fromConsole.body.data.find((row: { hotDrop: boolean }) => row.hotDrop);
    if (hot) expect(hot.hotDropState).toMatchObject({ liveReservations: 0 });

    // The catalog page's rows: the API's products, each with its publisher's name and SKU codes.
    const products = await consoleCall(t, dev, 'GET', '/products?limit=100');
    const apiProducts = (await api(dev.seller.auth, '/products?limit=100')).body.data as { id: string }[];
    expect(
      products.body.data.map(
        ({ publisherCompanyName: _name, skuCodes: _codes, ...row }: Record<string, unknown>) => row,
      ),
    ).toEqual(apiProducts);
    const productId = products.body.data[0].id as string;
    const detail = await consoleCall(t, dev, 'GET', `/products/${productId}`);
    expect(detail.body).toEqual((await api(dev.seller.auth, `/products/${productId}`)).body);
    const publisher = await t.ctx.db
      .selectFrom('companies')
      .select('name')
      .where('id', '=', detail.body.data.publisherCompanyId)
      .executeTakeFirstOrThrow();
    expect(products.body.data[0]).toMatchObject({
      publisherCompanyName: publisher.name,
      skuCodes: detail.body.data.skus
        .filter((sku: { delisted: boolean }) => !sku.delisted)
        .map((sku: { code: string }) => sku.code)
        .sort(),
    });
    expect((await consoleCall(t, dev, 'GET', '/partners')).body).toEqual(
      (await api(dev.seller.auth, '/partners')).body,
    );

    const skuId = fromApi.body.data[0].skuId as string;
    const stock = await consoleCall(t, dev, 'GET', `/skus/${skuId}/stock`);
    expect(stock.status).toBe(200);
    const single = await api(dev.seller.auth, `/availability?skuId=${skuId}`);
    expect(stock.body.data.availability).toEqual(single.body.data);
    expect(stock.body.data.history.at(-1)).toMatchObject({
      remaining: single.body.data.allocationRemaining,
      event: 'now',
    });
  });

  it("an unknown product or SKU is 404 and another company's grant 400, as in the API", async () => {
    const mine = await consoleUser(t, 'owner');
    const other = await consoleUser(t, 'owner');
    const theirs = (await api(other.seller.auth, '/allocations')).body.data[0];
    // The sandbox catalog is shared by every seller; a grant is one company's own.
    const nowhere = '01900000-0000-7000-8000-000000000000';
    expectApiError(await consoleCall(t, mine, 'GET', `/products/${nowhere}`), 404, 'NOT_FOUND');
    expectApiError(await api(mine.seller.auth, `/products/${nowhere}`), 404, 'NOT_FOUND');
    expectApiError(await consoleCall(t, mine, 'GET', `/skus/${nowhere}/stock`), 404, 'NOT_FOUND');
    const refused = await consoleCall(t, mine, 'POST', '/allocations/requests', {
      grantId: theirs.id,
      requestedQuantity: 5,
    });
    expectApiError(refused, 400, 'BAD_REQUEST');
    expect(refused.body.details.reason).toBe('unknown_grant');
  });

  it('requests an increase with the API service; finance and viewers may not', async () => {
    const dev = await consoleUser(t, 'developer');
    const grant = (await api(dev.seller.auth, '/allocations')).body.data[0];
    const made = await consoleCall(t, dev, 'POST', '/allocations/requests', {
      grantId: grant.id,
      requestedQuantity: 7,
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ grantId: grant.id, requestedQuantity: 7 });
    const listed = (await api(dev.seller.auth, '/allocations/requests')).body.data;
    expect(listed.map((r: { id: string }) => r.id)).toContain(made.body.data.id);
    expect((await consoleCall(t, dev, 'GET', '/allocations/requests')).body.data).toEqual(listed);
    for (const role of ['finance', 'viewer'] as const) {
      const user = await consoleUser(t, role, dev.seller);
      const denied = await consoleCall(t, user, 'POST', '/allocations/requests', {
        grantId: grant.id,
        requestedQuantity: 1,
      });
      expectApiError(denied, 403, 'FORBIDDEN');
      expect(denied.body.details.reason).toBe('role');
    }
    const owner = await consoleUser(t, 'owner', dev.seller);
    expect(
      (
        await consoleCall(t, owner, 'POST', '/allocations/requests', {
          grantId: grant.id,
          requestedQuantity: 1,
          unknown: true,
        })
      ).status,
    ).toBe(422);
  });

  it('shows the same daily usage as GET /usage, with the busiest keys and minutes', async () => {
    const viewer = await consoleUser(t, 'viewer');
    await api(viewer.seller.auth, '/whoami');
    await api(viewer.seller.auth, '/products');
    const fromApi = await api(viewer.seller.auth, '/usage');
    const fromConsole = await consoleCall(t, viewer, 'GET', '/usage');
    expect(fromConsole.status).toBe(200);
    // The API call above is itself counted once the console reads: compare the days before it.
    const usageCalls = (day: { apiCalls: Record<string, number> }) => day.apiCalls;
    expect(fromConsole.body.data.map((d: { date: string }) => d.date)).toEqual(
      fromApi.body.data.map((d: { date: string }) => d.date),
    );
    const today = fromConsole.body.data.at(-1);
    expect(usageCalls(today).catalog).toBe(fromApi.body.data.at(-1).apiCalls.catalog);
    expect(usageCalls(today).finance).toBe(fromApi.body.data.at(-1).apiCalls.finance + 1);
    expect(fromConsole.body.meta.rateLimits).toEqual(fromApi.body.meta.rateLimits);
    expect(fromConsole.body.meta.busiestKeys[0]).toMatchObject({ keyId: viewer.seller.keyId, calls: 3 });
    const catalogPeak = fromConsole.body.meta.peaks.find(
      (p: { rateClass: string; bucket: string }) => p.rateClass === 'catalog' && p.bucket === 'read',
    );
    expect(catalogPeak).toMatchObject({ peakPerMinute: 1, limitPerMinute: 1200 });
    const other = await consoleUser(t, 'viewer');
    expect((await consoleCall(t, other, 'GET', '/usage')).body.meta.busiestKeys).toEqual([]);
  });
});
