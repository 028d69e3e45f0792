import { describe, expect, it } from 'vitest';
import { admin, adminHeaders } from '../../../test/admin.js';
import { alwaysOrder, post } from '../../../test/checkout.js';
import { consoleCall, consoleUser } from '../../../test/console.js';
import type { TestSeller } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { productionOrder, productionScenario } from '../../../test/production.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { isChurnedAway } from '../allocations/sellability.js';
import { forgetCompanyFacts } from '../companies/companies.service.js';

const t = useTestApp();
const API = '/api/seller/v1';
const get = (auth: Record<string, string>, url: string) =>
  call(t, { method: 'GET', url: `${API}${url}`, headers: auth });

interface Row {
  id: string;
  readableId: string;
  skuId: string;
  skuCode: string;
  sellable: boolean;
  figures: {
    allocationLeft: number;
    keysInStock: number | null;
    sellableNow: number;
    ordersUse: string | null;
  };
}

/** The figures GET /availability gives for the SKU, named as the Allocations page names them. */
async function availabilityFigures(auth: Record<string, string>, skuId: string) {
  const { body } = await get(auth, `/availability?skuId=${skuId}`);
  return {
    allocationLeft: body.data.allocationRemaining,
    keysInStock: body.data.inventoryAvailable,
    sellableNow: body.data.available,
    ordersUse: null,
  };
}

describe('allocation figures: the Allocations page and GET /availability agree', () => {
  it('carries allocation left, keys in stock and sellable now as GET /availability gives them, for every sandbox SKU', async () => {
    const dev = await consoleUser(t, 'developer');
    const rows = async () => (await consoleCall(t, dev, 'GET', '/allocations?limit=100')).body.data as Row[];
    const byCode = (list: Row[], code: string) => list.find((row) => row.skuCode === code)!;
    const before = await rows();
    expect(before.length).toBeGreaterThan(5);
    // One bulk call: GET /availability answers each code with the same service as a single one.
    // The churning SKU is archived every other 6 hours: then it is no longer in the catalog the
    // seller can ask about, while its grant stays on the Allocations page.
    const churned = isChurnedAway(6, t.ctx.clock.now());
    const askable = before.filter((row) => !(churned && row.skuCode === 'SANDBOX-CHURN-001'));
    const codes = askable.map((row) => row.skuCode).join(',');
    const bulk = (await get(dev.seller.auth, `/availability?skuCodes=${codes}`)).body.data as {
      skuCode: string;
      allocationRemaining: number;
      inventoryAvailable: number;
      available: number;
    }[];
    expect(bulk.length).toBe(askable.length);
    for (const row of askable) {
      const answer = bulk.find((a) => a.skuCode === row.skuCode)!;
      expect(row.figures, row.skuCode).toEqual({
        allocationLeft: answer.allocationRemaining,
        keysInStock: answer.inventoryAvailable,
        sellableNow: answer.available,
        ordersUse: null,
      });
    }
    // No keys: the grant is sellable and has plenty left, but nothing can be sold, as an order finds.
    const empty = byCode(before, 'SANDBOX-NOKEYS-001');
    expect(empty.sellable).toBe(true);
    expect(empty.figures).toMatchObject({ keysInStock: 0, sellableNow: 0 });
    expect(empty.figures.allocationLeft).toBeGreaterThan(0);
    expectApiError(
      await post(t, dev.seller, '/orders', alwaysOrder({ skuCode: 'SANDBOX-NOKEYS-001' })),
      409,
      'NO_AVAILABLE_KEYS',
    );
    // Keys: 25 per sandbox company; an order of 2 takes them from both figures at once.
    expect(byCode(before, 'SANDBOX-STD-001').figures).toMatchObject({ keysInStock: 25, sellableNow: 25 });
    const sold = await post(
      t,
      dev.seller,
      '/orders',
      alwaysOrder({ skuCode: 'SANDBOX-STD-001', quantity: 2 }),
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const after = byCode(await rows(), 'SANDBOX-STD-001');
    expect(after.figures).toMatchObject({ keysInStock: 23, sellableNow: 23 });
    expect(after.figures).toEqual(await availabilityFigures(dev.seller.auth, after.skuId));
    // Not sellable (no territory pricing, a lifecycle block...): the figure says 0, as the API does.
    for (const row of before.filter((r) => !r.sellable)) expect(row.figures.sellableNow, row.skuCode).toBe(0);
  }, 120_000);

  it('an older grant on the same SKU sells nothing and names the allocation orders use', async () => {
    const s = await productionScenario(t, { keyCount: 3, quantityLimit: 10 });
    const seller = { company: { id: s.sellerId }, ...s.seller } as unknown as TestSeller;
    const owner = await consoleUser(t, 'owner', seller);
    expect((await consoleCall(t, owner, 'PUT', '/environment', { environment: 'production' })).status).toBe(
      200,
    );
    await admin(t, 'PATCH', `/allocations/${s.allocationId}`, { status: 'revoked' });
    const newer = await admin(t, 'POST', `/connections/${s.connectionId}/allocations`, {
      skuId: s.skuId,
      quantityLimit: 7,
      pricePerKeyCents: 3000,
      currencyCode: 'USD',
      currencyExponent: 2,
    });
    const rows = (await consoleCall(t, owner, 'GET', '/allocations')).body.data as Row[];
    const current = rows.find((row) => row.id === newer.id)!;
    const older = rows.find((row) => row.id === s.allocationId)!;
    expect(current.figures).toEqual(await availabilityFigures(s.seller.auth, s.skuId));
    expect(current.figures).toMatchObject({ allocationLeft: 7, keysInStock: 3, sellableNow: 3 });
    expect(older.figures).toEqual({
      allocationLeft: 0,
      keysInStock: null,
      sellableNow: 0,
      ordersUse: current.readableId,
    });
  });
});

describe('footprint: ISO codes in any case, and where orders are checked', () => {
  const put = (seller: TestSeller, payload: unknown) =>
    call(t, { method: 'PUT', url: `${API}/me/footprint`, headers: seller.auth, payload: payload as object });

  it('refuses XX, ABC and empty sets in one sentence naming the code, on the API and the console alike', async () => {
    const owner = await consoleUser(t, 'owner');
    const cases: [unknown, { field: string; message: string }[]][] = [
      [
        { countries: ['XX'], currencies: ['EUR'] },
        [{ field: 'countries[0]', message: 'XX is not an ISO 3166-1 country code.' }],
      ],
      [
        { countries: ['de'], currencies: ['eur', 'ABC'] },
        [{ field: 'currencies[1]', message: 'ABC is not an ISO 4217 currency code.' }],
      ],
      [
        { countries: [], currencies: [] },
        [
          { field: 'countries', message: 'Name at least one country you sell in.' },
          { field: 'currencies', message: 'Name at least one currency you sell in.' },
        ],
      ],
      [
        { countries: ['Germany', ' '], currencies: ['EUR'] },
        [
          { field: 'countries[0]', message: 'Germany is not an ISO 3166-1 country code.' },
          { field: 'countries[1]', message: 'A blank entry is not an ISO 3166-1 country code.' },
        ],
      ],
    ];
    for (const [payload, issues] of cases) {
      for (const refused of [
        await put(owner.seller, payload),
        await consoleCall(t, owner, 'PUT', '/footprint', payload),
      ]) {
        expectApiError(refused, 422, 'VALIDATION_FAILED');
        expect(refused.body.message).toBe(issues[0]!.message);
        expect(
          refused.body.details.issues.map(({ field, message }: { field: string; message: string }) => ({
            field,
            message,
          })),
        ).toEqual(issues);
      }
    }
    expect((await get(owner.seller.auth, '/me/footprint')).body.data).toMatchObject({
      countries: [],
      currencies: [],
      updatedAt: null,
    });
  });

  it('accepts lowercase and mixed case, stored upper case once each', async () => {
    const owner = await consoleUser(t, 'owner');
    const saved = await consoleCall(t, owner, 'PUT', '/footprint', {
      countries: ['de', 'Fr', ' at ', 'DE'],
      currencies: ['eur', 'chf'],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ countries: ['AT', 'DE', 'FR'], currencies: ['CHF', 'EUR'] });
    const fromApi = await put(owner.seller, { countries: ['us'], currencies: ['usd'] });
    expect(fromApi.body.data).toMatchObject({ countries: ['US'], currencies: ['USD'] });
  });

  it('the operator footprint write uses the same validator', async () => {
    const owner = await consoleUser(t, 'owner');
    const refused = await call(t, {
      method: 'PUT',
      url: `/admin/v1/companies/${owner.seller.company.id}/footprint`,
      headers: adminHeaders,
      payload: { countries: ['XX'], currencies: ['usd'] },
    });
    expectApiError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.message).toBe('XX is not an ISO 3166-1 country code.');
    await admin(
      t,
      'PUT',
      `/companies/${owner.seller.company.id}/footprint`,
      { countries: ['nl'], currencies: ['eur'] },
      200,
    );
    expect((await get(owner.seller.auth, '/me/footprint')).body.data).toMatchObject({
      countries: ['NL'],
      currencies: ['EUR'],
    });
  });

  it("the page's checks are what an order does: none declared, sandbox orders pass and production refuses; declared, both refuse outside it", async () => {
    const owner = await consoleUser(t, 'owner');
    const checks = async () => (await consoleCall(t, owner, 'GET', '/company')).body.data.footprintChecks;
    expect(await checks()).toEqual({ sandbox: false, production: true });
    const open = await post(t, owner.seller, '/orders', alwaysOrder());
    expect(open.status, JSON.stringify(open.body)).toBe(200);

    expect(
      (await consoleCall(t, owner, 'PUT', '/footprint', { countries: ['de'], currencies: ['eur'] })).status,
    ).toBe(200);
    expect(await checks()).toEqual({ sandbox: true, production: true });
    const outside = await post(t, owner.seller, '/orders', alwaysOrder());
    expectApiError(outside, 422, 'FOOTPRINT_COUNTRY_NOT_DECLARED');
    expect(outside.body.details).toMatchObject({ countryCode: 'US' });

    // Production with nothing declared: every order refused, as the page says.
    const s = await productionScenario(t, { keyCount: 2 });
    await t.ctx.db.deleteFrom('seller_footprints').where('company_id', '=', s.sellerId).execute();
    forgetCompanyFacts(t.ctx, s.sellerId);
    const seller = { company: { id: s.sellerId }, ...s.seller } as unknown as TestSeller;
    const producer = await consoleUser(t, 'owner', seller);
    expect((await consoleCall(t, producer, 'GET', '/company')).body.data.footprintChecks).toEqual({
      sandbox: false,
      production: true,
    });
    expectApiError(
      await post(t, seller, '/orders', productionOrder(s)),
      422,
      'FOOTPRINT_COUNTRY_NOT_DECLARED',
    );
  });
});

describe('home checklist', () => {
  it('opens the footprint editor to declare where you sell, and counts in words', async () => {
    const owner = await consoleUser(t, 'owner');
    const items = async () =>
      (await consoleCall(t, owner, 'GET', '/home')).body.data.items as {
        id: string;
        detail: string;
        href: string | null;
      }[];
    const item = async (id: string) => (await items()).find((i) => i.id === id)!;
    expect(await item('footprint')).toMatchObject({ href: '/console/settings#footprint' });
    expect((await item('sandbox_key')).detail).toBe('1 live sandbox key.');
    await consoleCall(t, owner, 'PUT', '/footprint', { countries: ['de'], currencies: ['eur', 'usd'] });
    expect((await item('footprint')).detail).toBe('1 country, EUR, USD');
    await consoleCall(t, owner, 'PUT', '/footprint', { countries: ['de', 'at'], currencies: ['eur'] });
    expect((await item('footprint')).detail).toBe('2 countries, EUR');
  });
});
