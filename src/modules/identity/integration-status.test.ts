import { describe, expect, it } from 'vitest';
import { alwaysOrder } from '../../../test/checkout.js';
import { makeSeller } from '../../../test/factories.js';
import { placeSale, sellerGet } from '../../../test/finance.js';
import { useTestApp } from '../../../test/harness.js';
import { call, describeRouteContract } from '../../../test/route-contract.js';

const t = useTestApp();

describeRouteContract('GET /integration/status', t, {
  method: 'GET',
  url: () => '/api/seller/v1/integration/status',
});

const statusOf = async (seller: Awaited<ReturnType<typeof makeSeller>>) => {
  const res = await sellerGet(t, seller, '/integration/status');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const check = (data: { checks: { check: string }[] }, name: string) =>
  data.checks.find((c) => c.check === name);

describe('GET /integration/status', () => {
  it('reports the first completed order, the footprint and whoami blockers, each with its action', async () => {
    const seller = await makeSeller(t, { country: null });
    const before = await statusOf(seller);
    expect(before).toMatchObject({
      environment: 'sandbox',
      ready: false,
      firstOrderCompleted: false,
      firstOrderAt: null,
      blockers: [{ code: 'STORE_COUNTRY_MISSING', action: 'register_company_country' }],
    });
    expect(check(before, 'blockers')).toEqual({
      check: 'blockers',
      status: 'action_required',
      action: 'register_company_country',
    });
    expect(check(before, 'first_order')).toMatchObject({ status: 'pending', action: 'place_first_order' });

    await placeSale(t, seller, alwaysOrder({ orderReference: 'first-one' }));
    const after = await statusOf(seller);
    expect(after).toMatchObject({ firstOrderCompleted: true, firstOrderReference: 'first-one' });
    expect(Date.parse(after.firstOrderAt)).toBeLessThanOrEqual(t.ctx.clock.now());
    expect(check(after, 'first_order')).toMatchObject({ status: 'ok', action: null });
  });

  it('says the footprint is complete only with a country and a currency', async () => {
    const seller = await makeSeller(t);
    const empty = await statusOf(seller);
    expect(empty.footprint).toMatchObject({ complete: false, countries: [], currencies: [] });
    expect(check(empty, 'footprint')).toMatchObject({
      status: 'action_required',
      action: 'declare_footprint',
    });
    expect(empty.ready).toBe(false);
    const put = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers: seller.auth,
      payload: { countries: ['US'], currencies: ['USD'] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const data = await statusOf(seller);
    expect(data.footprint).toMatchObject({ complete: true, countries: ['US'], currencies: ['USD'] });
    expect(check(data, 'footprint')).toMatchObject({ status: 'ok' });
    expect(data.ready).toBe(data.checks.every((c: { status: string }) => c.status !== 'action_required'));
  });
});
